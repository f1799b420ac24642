package dev.jobweaver.api.job;

import dev.jobweaver.api.platform.http.HttpLimits;
import jakarta.inject.Singleton;
import java.time.Duration;

/** The HTTP layer's bounds, read from the job API's configuration, where their keys are documented. */
@Singleton
class JobHttpLimits implements HttpLimits {

    private final JobApiConfig config;

    JobHttpLimits(JobApiConfig config) {
        this.config = config;
    }

    @Override
    public int maxBodyBytes() {
        return config.validation().maxBodyBytes();
    }

    @Override
    public int defaultPageSize() {
        return config.paging().defaultSize();
    }

    @Override
    public int maxPageSize() {
        return config.paging().maxSize();
    }

    @Override
    public Duration outageRetryAfter() {
        return config.publish().retryAfter();
    }

    @Override
    public long maxBytesInFlight() {
        return config.admission().maxBytesInFlight();
    }

    @Override
    public Duration overloadedRetryAfter() {
        return config.admission().retryAfter();
    }
}
