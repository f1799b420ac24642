package dev.jobweaver.common.job;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class JobIdsTest {

    @Test
    void aNewIdIsVersion7WithRfc9562sVariantAndTodaysTime() {
        long before = System.currentTimeMillis();
        UUID id = JobIds.next();
        long after = System.currentTimeMillis();

        assertThat(id.version()).isEqualTo(7);
        assertThat(id.variant()).isEqualTo(2);
        assertThat(id.getMostSignificantBits() >>> 16).isBetween(before, after);
    }

    @Test
    void theTimeIsTheFirst48BitsSoTheTextSortsByTime() {
        UUID id = JobIds.of(0x0123_4567_89ABL, new UUID(0, 0x8000_0000_0000_0000L));

        assertThat(id.toString()).startsWith("01234567-89ab-7000-8000-");
        UUID earlier = JobIds.of(1_700_000_000_000L, UUID.randomUUID());
        UUID later = JobIds.of(1_700_000_000_001L, UUID.randomUUID());
        assertThat(earlier.compareTo(later)).isNegative();
        assertThat(earlier.toString().compareTo(later.toString())).isNegative();
    }

    @Test
    void keepsTheSeventyFourRandomBitsOfTheVersion4Uuid() {
        UUID random = UUID.fromString("ffffffff-ffff-4abc-bdef-0123456789ab");

        UUID id = JobIds.of(1_700_000_000_000L, random);

        assertThat(id.getMostSignificantBits() & 0x0FFFL).isEqualTo(0xABCL);
        assertThat(id.getLeastSignificantBits()).isEqualTo(random.getLeastSignificantBits());
    }

    @Test
    void idsOfTheSameMillisecondStillDiffer() {
        Set<UUID> ids = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            ids.add(JobIds.of(1_700_000_000_000L, UUID.randomUUID()));
        }

        assertThat(ids).hasSize(10_000);
    }

    @Test
    void aTicksIdIsTheSameForTheSameTickAndVersion7AtTheTicksMillisecond() {
        UUID schedule = UUID.randomUUID();
        Instant tick = Instant.parse("2026-11-26T08:00:01Z");
        UUID id = JobIds.forTick(schedule, tick);

        assertThat(JobIds.forTick(schedule, tick)).isEqualTo(id);
        assertThat(id.version()).isEqualTo(7);
        assertThat(id.variant()).isEqualTo(2);
        assertThat(id.getMostSignificantBits() >>> 16).isEqualTo(tick.toEpochMilli());
        assertThat(JobIds.forTick(schedule, tick.plusSeconds(1))).isNotEqualTo(id);
        assertThat(JobIds.forTick(UUID.randomUUID(), tick)).isNotEqualTo(id);
    }

    @Test
    void aNodesIdIsFixedByRunAndNodeAndCarriesTheRunsTime() {
        UUID run = JobIds.next();

        UUID id = JobIds.forNode(run, "extract");

        assertThat(JobIds.forNode(run, "extract")).isEqualTo(id);
        assertThat(JobIds.forNode(run, "load")).isNotEqualTo(id);
        assertThat(JobIds.forNode(JobIds.next(), "extract")).isNotEqualTo(id);
        assertThat(id.version()).isEqualTo(7);
        assertThat(id.getMostSignificantBits() >>> 16).isEqualTo(run.getMostSignificantBits() >>> 16);
    }

    @Test
    void aHookCallNamesOneJobPerHookAndSignature() {
        UUID hook = UUID.randomUUID();
        UUID id = JobIds.forHookCall(hook, 1_767_225_600L, "sha256=ab");

        assertThat(JobIds.forHookCall(hook, 1_767_225_600L, "sha256=ab")).isEqualTo(id);
        assertThat(JobIds.forHookCall(hook, 1_767_225_600L, "sha256=cd")).isNotEqualTo(id);
        assertThat(JobIds.forHookCall(UUID.randomUUID(), 1_767_225_600L, "sha256=ab")).isNotEqualTo(id);
        assertThat(id.version()).isEqualTo(7);
        assertThat(id.getMostSignificantBits() >>> 16).isEqualTo(1_767_225_600_000L);
    }

    @Test
    void anEventNamesOneRunPerTenantEventAndWorkflowAtItsReceipt() {
        UUID workflow = UUID.randomUUID();
        Instant received = Instant.parse("2026-11-30T10:15:30.123456Z");
        UUID id = JobIds.forEvent("acme", "order-42", workflow, received);

        assertThat(JobIds.forEvent("acme", "order-42", workflow, received)).isEqualTo(id);
        assertThat(JobIds.forEvent("acme", "order-43", workflow, received)).isNotEqualTo(id);
        assertThat(JobIds.forEvent("other", "order-42", workflow, received)).isNotEqualTo(id);
        assertThat(JobIds.forEvent("acme", "order-42", UUID.randomUUID(), received)).isNotEqualTo(id);
        assertThat(id.version()).isEqualTo(7);
        assertThat(id.getMostSignificantBits() >>> 16).isEqualTo(received.toEpochMilli());
    }
}
