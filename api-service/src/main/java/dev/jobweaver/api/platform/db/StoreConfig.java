package dev.jobweaver.api.platform.db;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Typed configuration of the API's own database as a whole ({@code jobweaver.api.store.*}). */
@ConfigMapping(prefix = "jobweaver.api.store")
public interface StoreConfig {

    /**
     * How often the table and index sizes ({@code jobweaver_store_table_bytes}, {@code jobweaver_store_index_bytes})
     * are read again from the catalog (also read by {@code @Scheduled}): a scrape reads the last figures and never
     * waits for the database. Tables grow over hours, so a minute loses nothing the alerts look at.
     */
    @WithDefault("60s")
    Duration sizesRefresh();
}
