package com.example.billing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.sdk.Deadline;
import dev.jobweaver.sdk.JobFailure;
import dev.jobweaver.sdk.Priority;
import dev.jobweaver.sdk.RunContext;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The handler on its own, as a team tests its handlers: no platform, no Kafka, only the SDK's types. */
class InvoiceTotalHandlerTest {

    private final InvoiceTotalHandler handler = new InvoiceTotalHandler();

    @Test
    void totalsTheLinesAndTheTaxRoundedToCents() throws Exception {
        Invoice invoice = new Invoice("2026-0042", "EUR", List.of(
                new Invoice.Line("consulting", 3, new BigDecimal("120.00")),
                new Invoice.Line("travel", 1, new BigDecimal("45.55"))), new BigDecimal("0.19"));

        JsonNode result = handler.run(run(invoice));

        assertThat(result.path("invoice").asText()).isEqualTo("2026-0042");
        assertThat(result.path("net").asText()).isEqualTo("405.55");
        assertThat(result.path("tax").asText()).isEqualTo("77.05"); // 77.0545 rounded half-even
        assertThat(result.path("gross").asText()).isEqualTo("482.60");
        assertThat(result.path("lines").asInt()).isEqualTo(2);
    }

    @Test
    void anInvoiceThatCannotBeTotalledFailsNamingEveryProblem() {
        Invoice invoice = new Invoice("", "euro", List.of(new Invoice.Line("refund", 0, new BigDecimal("-5"))),
                new BigDecimal("1.5"));

        assertThatThrownBy(() -> handler.run(run(invoice)))
                .isInstanceOf(JobFailure.class)
                .hasMessageStartingWith("INVOICE.INVALID: ")
                .hasMessageContaining("number is required")
                .hasMessageContaining("currency must be three capital letters (ISO 4217), got euro")
                .hasMessageContaining("taxRate must be from 0 to 1, got 1.5")
                .hasMessageContaining("lines[0].quantity must be at least 1, got 0")
                .hasMessageContaining("lines[0].unitPrice must be 0 or more, got -5");
    }

    @Test
    void anInterruptedRunStopsInsteadOfReporting() {
        Invoice invoice = new Invoice("7", "EUR", List.of(new Invoice.Line("a", 1, BigDecimal.ONE)), BigDecimal.ZERO);

        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> handler.run(run(invoice))).isInstanceOf(InterruptedException.class);
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void itDeclaresItsTypeAndPayload() {
        assertThat(handler.type()).isEqualTo("invoice.total");
        assertThat(handler.payloadType()).isEqualTo(Invoice.class);
        assertThat(handler.expectedDuration(null)).isEqualTo(Duration.ofSeconds(1));
        assertThat(handler.defaults().timeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(handler.defaults().retryDelays()).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(5));
        assertThat(handler.defaults().priority()).isEqualTo(Priority.HIGH);
    }

    private static RunContext<Invoice> run(Invoice invoice) {
        return new RunContext<>(UUID.randomUUID(), 1, "trace", invoice, Deadline.in(Duration.ofSeconds(1), false));
    }
}
