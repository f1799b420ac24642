package dev.jobweaver.api.platform.db;

import java.util.UUID;

/**
 * A row that a request names does not exist, with its id for the resource's answer. It answers a request, it is no
 * bug, so it carries no stack trace.
 */
public class RowNotFoundException extends RuntimeException {

    private final UUID id;

    protected RowNotFoundException(String message, UUID id) {
        super(message, null, false, false);
        this.id = id;
    }

    /** The id that names no row. */
    public UUID id() {
        return id;
    }
}
