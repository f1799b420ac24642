package com.example.billing;

import java.math.BigDecimal;
import java.util.List;

/**
 * The payload of an {@code invoice.total} job: what the billing system sends.
 *
 * @param number the invoice's number, echoed in the result
 * @param currency an ISO 4217 code, such as {@code EUR}
 * @param lines at least one
 * @param taxRate a fraction ({@code 0.2} for 20%), from 0 to 1
 */
public record Invoice(String number, String currency, List<Line> lines, BigDecimal taxRate) {

    /**
     * One line of an invoice.
     *
     * @param quantity at least 1
     * @param unitPrice not negative, in the invoice's currency
     */
    public record Line(String description, int quantity, BigDecimal unitPrice) {
    }
}
