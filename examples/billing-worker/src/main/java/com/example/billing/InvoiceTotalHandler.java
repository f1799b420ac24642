package com.example.billing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.jobweaver.sdk.HandlerDefaults;
import dev.jobweaver.sdk.JobFailure;
import dev.jobweaver.sdk.JobHandler;
import dev.jobweaver.sdk.Priority;
import dev.jobweaver.sdk.RunContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Totals an invoice: {@code invoice.total} jobs, on the billing queue. A bean implementing {@link JobHandler} is all
 * the platform needs to find: the worker announces the type, receives its runs and reports what {@link #run} returns.
 *
 * <p>An invoice the billing system got wrong fails with {@code INVOICE.INVALID} naming every problem, so that an
 * operator reading the dead letter knows what to fix; it is not worth retrying, which the jobs say with
 * {@code maxRetries: 0}.
 */
@ApplicationScoped
public class InvoiceTotalHandler implements JobHandler<Invoice> {

    /** The job type this worker runs. */
    public static final String TYPE = "invoice.total";
    /** The code of an invoice that cannot be totalled. */
    public static final String INVALID = "INVOICE.INVALID";

    private static final Pattern CURRENCY = Pattern.compile("[A-Z]{3}");

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public Class<Invoice> payloadType() {
        return Invoice.class;
    }

    /** Arithmetic on a few lines: a second is generous, and the platform interrupts past it. */
    @Override
    public Duration expectedDuration(Invoice invoice) {
        return Duration.ofSeconds(1);
    }

    /** Invoices go out before other work, and a hiccup is retried soon: unless a job says otherwise. */
    @Override
    public HandlerDefaults defaults() {
        return HandlerDefaults.none()
                .withTimeout(Duration.ofSeconds(5))
                .withRetryDelays(Duration.ofSeconds(1), Duration.ofSeconds(5))
                .withPriority(Priority.HIGH);
    }

    @Override
    public JsonNode run(RunContext<Invoice> run) throws JobFailure, InterruptedException {
        Invoice invoice = run.payload();
        List<String> problems = problems(invoice);
        if (!problems.isEmpty()) {
            throw JobFailure.withCode(INVALID, String.join("; ", problems));
        }
        BigDecimal net = BigDecimal.ZERO;
        for (Invoice.Line line : invoice.lines()) {
            if (Thread.currentThread().isInterrupted()) {
                // the deadline passed or the job was cancelled: stop, the platform reports which
                throw new InterruptedException();
            }
            net = net.add(line.unitPrice().multiply(BigDecimal.valueOf(line.quantity())));
        }
        net = net.setScale(2, RoundingMode.HALF_EVEN);
        BigDecimal tax = net.multiply(invoice.taxRate()).setScale(2, RoundingMode.HALF_EVEN);
        ObjectNode result = JsonNodeFactory.instance.objectNode();
        result.put("invoice", invoice.number());
        result.put("currency", invoice.currency());
        result.put("lines", invoice.lines().size());
        // as strings: an amount must not pass through a binary floating point anywhere on its way
        result.put("net", net.toPlainString());
        result.put("tax", tax.toPlainString());
        result.put("gross", net.add(tax).toPlainString());
        return result;
    }

    /** What is wrong with {@code invoice}, each naming its field; empty when it can be totalled. */
    static List<String> problems(Invoice invoice) {
        List<String> problems = new ArrayList<>();
        if (invoice.number() == null || invoice.number().isBlank()) {
            problems.add("number is required");
        }
        if (invoice.currency() == null || !CURRENCY.matcher(invoice.currency()).matches()) {
            problems.add("currency must be three capital letters (ISO 4217), got " + invoice.currency());
        }
        if (invoice.taxRate() == null || invoice.taxRate().signum() < 0 || invoice.taxRate().compareTo(BigDecimal.ONE) > 0) {
            problems.add("taxRate must be from 0 to 1, got " + invoice.taxRate());
        }
        if (invoice.lines() == null || invoice.lines().isEmpty()) {
            problems.add("lines must hold at least one line");
            return problems;
        }
        for (int i = 0; i < invoice.lines().size(); i++) {
            Invoice.Line line = invoice.lines().get(i);
            if (line == null) {
                problems.add("lines[" + i + "] is null");
                continue;
            }
            if (line.quantity() < 1) {
                problems.add("lines[" + i + "].quantity must be at least 1, got " + line.quantity());
            }
            if (line.unitPrice() == null || line.unitPrice().signum() < 0) {
                problems.add("lines[" + i + "].unitPrice must be 0 or more, got " + line.unitPrice());
            }
        }
        return problems;
    }
}
