package dev.jobweaver.e2e.support;

import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.ClassOrdererContext;

/**
 * The order of the scenarios on the shared platform: the ones that load the machine least first, so that
 * {@code RestartIT}, which runs beside them with a platform of its own, starts, stops and measures its first jobs while
 * the cores are mostly idle. Every other scenario follows, in the order the build found it; among them
 * {@code MetricsExposedIT}, which early in a platform's life waits half a minute for gauges that refresh on timers.
 *
 * <p>{@code RestartIT} bounds how soon a job runs after a start, as the reliability rules do, and in a run beside the
 * scenarios that submit thousands of jobs (a Kafka crash, the tenant limits) its first job took 2.35 s of its 3 s,
 * beside these 0.48 s, as on an idle machine (2026-12-03).
 */
public final class ScenarioOrder implements ClassOrderer {

    /**
     * First the platform's start, then the light scenarios, then the schedules' second-by-second ticks, whose second
     * scheduler replica starts a JVM: late enough to miss {@code RestartIT}'s second start.
     */
    static final List<String> LIGHT_FIRST = List.of("SuccessIT", "BadInputIT", "OpenApiServedIT", "SecurityIT",
            "IdempotencyIT", "JobControlIT", "WaitingForAWorkerIT", "TraceContinuityIT", "HttpJobIT", "NotificationIT",
            "DocExamplesIT", "RetriesIT", "DeleteIT", "CancelIT", "ScheduleIT");

    @Override
    public void orderClasses(ClassOrdererContext context) {
        context.getClassDescriptors().sort(Comparator.comparingInt(d -> rank(d.getTestClass().getSimpleName())));
    }

    /** A scenario's place in {@link #LIGHT_FIRST}, or after all of them (the stable sort keeps the rest's order). */
    static int rank(String scenario) {
        int rank = LIGHT_FIRST.indexOf(scenario);
        return rank < 0 ? LIGHT_FIRST.size() : rank;
    }
}
