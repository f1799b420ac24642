package dev.jobweaver.common.error;

/** A namespaced, stable error code such as {@code API.JOB_NOT_FOUND}: clients and dashboards match on it. */
public interface ErrorCode {

    /** The namespace, e.g. {@code API}. */
    String namespace();

    /** The enum constant's name within its namespace. */
    String name();

    /** {@code NAMESPACE.NAME}, as it appears in the body of an error answer. */
    default String code() {
        return namespace() + "." + name();
    }
}
