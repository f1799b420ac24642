package dev.jobweaver.scheduler.testing;

import dev.jobweaver.scheduler.schedule.ScheduleTimerRepository;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Base of the schedule tests: {@link KafkaAndDbTest}'s clients, the timers' repository, and {@link TestSchedules},
 * which publishes schedules and records the ticks fired, opened before each test and closed after it.
 */
public abstract class ScheduleKafkaTest extends KafkaAndDbTest {

    @Inject
    protected ScheduleTimerRepository timers;

    @Inject
    protected MeterRegistry registry;

    protected TestSchedules schedules;

    @BeforeEach
    void startSchedules() {
        schedules = new TestSchedules(bootstrapServers, producer, mapper, timers);
    }

    @AfterEach
    void stopSchedules() throws InterruptedException {
        schedules.close();
    }

    /** The ticks counted so far with {@code outcome}, zero until its counter exists. */
    protected double ticks(String outcome) {
        var counter = registry.find("jobweaver.schedule.ticks").tag("outcome", outcome).counter();
        return counter == null ? 0 : counter.count();
    }
}
