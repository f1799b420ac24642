package dev.jobweaver.api.job;

import dev.jobweaver.api.platform.http.HttpLimits;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** The HTTP layer's bounds, read from the job API's configuration, where their keys are documented. */
@Singleton
class JobHttpLimits {

    @Produces
    @Singleton
    HttpLimits limits(JobApiConfig config) {
        return new HttpLimits(config.validation().maxBodyBytes(), config.paging().defaultSize(),
                config.paging().maxSize(), config.publish().retryAfter(), config.admission().maxBytesInFlight(),
                config.admission().retryAfter());
    }
}
