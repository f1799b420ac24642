package dev.jobweaver.api.security.crypto;

import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jboss.logging.Logger;

/**
 * Seals, at start, the hooks' and subscriptions' secrets stored in plaintext before secrets were sealed. Each row is
 * updated only if it still holds the plaintext read, so instances starting together seal each row once. Reads take a
 * plaintext as it is ({@link SecretCipher#open}), so a row this misses (the database down at start) keeps working and
 * is sealed at the next start.
 */
@ApplicationScoped
public class PlaintextSecretSealing {

    private static final Logger LOG = Logger.getLogger(PlaintextSecretSealing.class);
    private static final Duration BOUND = Duration.ofSeconds(30);
    /** The tables whose {@code secret} column holds a sealed secret, each row its own associated data. */
    private static final List<String> TABLES = List.of("hooks", "subscriptions");

    @Inject Pool pool;
    @Inject SealedSecrets secrets;

    void onStart(@Observes StartupEvent event) {
        try {
            int sealed = sealAll().await().atMost(BOUND);
            if (sealed > 0) {
                LOG.infof("sealed %d webhook secrets stored in plaintext", sealed);
            }
        } catch (RuntimeException e) {
            LOG.warnf("plaintext webhook secrets were not sealed at start (they still work, and are sealed at the"
                    + " next start): %s", e.getMessage());
        }
    }

    /** Seals every plaintext secret of every table; how many. */
    public Uni<Integer> sealAll() {
        Uni<Integer> total = Uni.createFrom().item(0);
        for (String table : TABLES) {
            total = total.chain(sum -> seal(table).map(count -> sum + count));
        }
        return total;
    }

    private Uni<Integer> seal(String table) {
        return pool.query("SELECT id, secret FROM " + table + " WHERE secret IS NOT NULL AND secret NOT LIKE '"
                        + SecretCipher.V1 + "%'").execute()
                .chain(rows -> {
                    List<Tuple> updates = new ArrayList<>(rows.size());
                    for (Row row : rows) {
                        String plain = row.getString("secret");
                        updates.add(Tuple.of(row.getUUID("id"), secrets.seal(plain, row.getUUID("id")), plain));
                    }
                    if (updates.isEmpty()) {
                        return Uni.createFrom().item(0);
                    }
                    return pool.preparedQuery("UPDATE " + table + " SET secret = $2 WHERE id = $1 AND secret = $3")
                            .executeBatch(updates).map(result -> {
                                int count = 0;
                                for (var r = result; r != null; r = r.next()) {
                                    count += r.rowCount();
                                }
                                return count;
                            });
                });
    }
}
