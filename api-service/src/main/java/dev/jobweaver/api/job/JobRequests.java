package dev.jobweaver.api.job;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * The one reader and the one checker of job requests that the resources taking a job in their body share (dead
 * letters' requeue, hooks' job template). Both are immutable, so one of each serves every request thread.
 */
@Singleton
class JobRequests {

    @Produces
    @Singleton
    JobRequestReader reader(ObjectMapper mapper) {
        return new JobRequestReader(mapper);
    }

    @Produces
    @Singleton
    JobRequestValidator validator(JobApiConfig config) {
        return new JobRequestValidator(JobRequestValidator.limitsOf(config.validation()));
    }
}
