package dev.jobweaver.worker.handler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.common.event.WorkerHeartbeatEvent;
import dev.jobweaver.common.job.JobPayload;
import dev.jobweaver.common.job.JobType;
import dev.jobweaver.sdk.HandlerDefaults;
import dev.jobweaver.sdk.JobHandler;
import dev.jobweaver.sdk.Priority;
import dev.jobweaver.sdk.RunContext;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The registry holds one handler per job type: a second one for a type stops start-up, a missing one is null. */
class HandlerRegistryTest {

    @Test
    void eachTypeFindsItsHandler() {
        Fake simulation = new Fake(JobType.SIMULATION);
        Fake http = new Fake(JobType.HTTP);

        HandlerRegistry registry = new HandlerRegistry(List.of(new HandlerRegistry.Named(simulation, "sim"),
                new HandlerRegistry.Named(http, "http")));

        assertThat(registry.handler(JobType.SIMULATION)).isSameAs(simulation);
        assertThat(registry.handler(JobType.HTTP)).isSameAs(http);
        assertThat(registry.types()).containsExactlyInAnyOrder(JobType.SIMULATION, JobType.HTTP);
    }

    @Test
    void aTeamsOwnTypeIsFoundByItsName() {
        Fake resize = new Fake(JobType.of("image.resize"));

        HandlerRegistry registry = new HandlerRegistry(List.of(new HandlerRegistry.Named(resize, "resize")));

        assertThat(registry.handler(JobType.of("image.resize"))).isSameAs(resize);
        assertThat(registry.handler(JobType.of("image.crop"))).isNull();
        assertThat(registry.types()).containsExactly(JobType.of("image.resize"));
    }

    @Test
    void twoHandlersForOneTypeFailNamingBoth() {
        List<HandlerRegistry.Named> twice = List.of(new HandlerRegistry.Named(new Fake(JobType.HTTP), "FirstHttp"),
                new HandlerRegistry.Named(new Fake(JobType.SIMULATION), "Simulation"),
                new HandlerRegistry.Named(new Fake(JobType.HTTP), "SecondHttp"));

        assertThatThrownBy(() -> new HandlerRegistry(twice))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("two job handlers for job type HTTP: FirstHttp and SecondHttp; keep one");
    }

    @Test
    void aHandlerWithoutATypeFailsStartUp() {
        assertThatThrownBy(() -> new HandlerRegistry(List.of(new HandlerRegistry.Named(new Fake((String) null), "Untyped"))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("job handler Untyped names no job type");
    }

    @Test
    void aTypeNameThatIsNotAJobTypesFailsStartUpNamingTheHandler() {
        assertThatThrownBy(() -> new HandlerRegistry(List.of(new HandlerRegistry.Named(new Fake("image resize"),
                "Resize"))))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("job handler Resize: a job type must be a letter")
                .hasMessageContaining("'image resize'");
    }

    @Test
    void aTypeWithoutAHandlerHasNone() {
        HandlerRegistry registry = new HandlerRegistry(
                List.of(new HandlerRegistry.Named(new Fake(JobType.SIMULATION), "sim")));

        assertThat(registry.handler(JobType.HTTP)).isNull();
        assertThat(registry.handler(null)).isNull();
        assertThat(registry.types()).containsExactly(JobType.SIMULATION);
    }

    @Test
    void theDefaultsItsHandlersDeclareAreAnnouncedAsAJobsOwnFieldsWouldBe() {
        Fake declaring = new Fake("invoice.total", HandlerDefaults.none().withTimeout(Duration.ofSeconds(5))
                .withRetryDelays(Duration.ofSeconds(1), Duration.ofMillis(5500)).withPriority(Priority.HIGH));
        HandlerRegistry registry = new HandlerRegistry(List.of(new HandlerRegistry.Named(declaring, "invoices"),
                new HandlerRegistry.Named(new Fake(JobType.SIMULATION), "sim")));

        assertThat(registry.declaredDefaults()).containsOnlyKeys("invoice.total");
        WorkerHeartbeatEvent.TypeDefaults announced = registry.declaredDefaults().get("invoice.total");
        assertThat(announced.timeoutMs()).isEqualTo(5_000L);
        assertThat(announced.retryDelaysMs()).containsExactly(1_000L, 5_500L);
        assertThat(announced.priority()).isEqualTo(dev.jobweaver.common.job.Priority.HIGH);
    }

    /** A handler that names its type, and its defaults if any. */
    private record Fake(String type, HandlerDefaults defaults) implements JobHandler<JobPayload> {

        Fake(String type) {
            this(type, HandlerDefaults.none());
        }

        Fake(JobType type) {
            this(type == null ? null : type.name());
        }

        @Override
        public Class<JobPayload> payloadType() {
            return JobPayload.class;
        }

        @Override
        public Duration expectedDuration(JobPayload payload) {
            return Duration.ZERO;
        }

        @Override
        public JsonNode run(RunContext<JobPayload> run) {
            return null;
        }
    }
}
