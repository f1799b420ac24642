package dev.jobweaver.api.notification;

/** Where a delivery stands: waiting for an attempt (or in one), delivered (a 2xx answer), or given up. */
public enum DeliveryState {
    PENDING,
    DELIVERED,
    GIVEN_UP
}
