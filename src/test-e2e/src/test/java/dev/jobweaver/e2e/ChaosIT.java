package dev.jobweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.e2e.support.E2ePlatform;
import dev.jobweaver.local.Platform;
import dev.jobweaver.bench.chaos.ChaosReport;
import dev.jobweaver.bench.chaos.ChaosRun;
import dev.jobweaver.bench.chaos.Kill;
import dev.jobweaver.bench.chaos.Target;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A short `./jobweaver chaos` on the suite's shared platform: 50 no-op jobs a second for 70 s while, every 12 s, one of
 * the API, the scheduler, the worker, Kafka and PostgreSQL is SIGKILLed (five kills: each target once, in the seed's
 * order). No accepted job may be lost; jobs started twice are reported, not failed (delivery is at least once). Every
 * target runs again when it ends, so the next scenarios find a healthy platform.
 *
 * <p>12 s between kills leaves a killed service time to be back (the restart delay, then a boot on a loaded 2-core
 * machine) before the next target goes down, and the 10 s after the last kill let that one recover under load too.
 */
class ChaosIT {

    @BeforeEach
    void platformIsHealthy() {
        E2ePlatform.awaitHealthy();
        // A killed API resets the client's connections: counted as "no answer", not worth an ERROR line each.
        java.util.logging.Logger.getLogger("io.vertx.core.net.impl.ConnectionBase")
                .setLevel(java.util.logging.Level.OFF);
    }

    @Test
    void noAcceptedJobIsLostWhileServicesKafkaAndPostgresAreKilled() throws Exception {
        Platform platform = E2ePlatform.get();
        ChaosRun.Settings settings = new ChaosRun.Settings(Duration.ofSeconds(70), 50, Duration.ofSeconds(12), 2026);
        ChaosReport report;
        try {
            report = new ChaosRun(platform, settings, line -> System.out.println("[chaos] " + line)).run();
        } finally {
            // The run brings everything back itself; this covers a run that failed half-way.
            if (!platform.stack().kafka().isRunning()) {
                platform.stack().kafka().start();
            }
            if (!platform.stack().postgres().isRunning()) {
                platform.stack().postgres().start();
            }
        }
        Files.writeString(Path.of("target", "chaos-report.json"), report.toJson());
        report.summary().forEach(line -> System.out.println("[chaos] " + line));
        System.out.println("[measure] chaos 70 s at 50 jobs/s, a kill every 12 s: " + report.oneLine());

        assertThat(report.kills()).as("a kill at 12, 24, 36, 48 and 60 s").hasSize(5);
        assertThat(report.kills()).as("each target killed once").extracting(Kill::target)
                .containsExactlyInAnyOrder(Target.values());
        assertThat(report.kills()).as("a service killed").anyMatch(k -> k.target().isService());
        assertThat(report.kills()).as("Kafka or PostgreSQL killed")
                .anyMatch(k -> k.target() == Target.KAFKA || k.target() == Target.POSTGRES);
        assertThat(report.kills()).as("every target back").allMatch(Kill::cameBack);
        assertThat(report.accepted()).isPositive();
        assertThat(report.lostJobs()).as("accepted jobs that never ended (%s)", report.lostByState()).isEmpty();
    }
}
