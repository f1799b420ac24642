package dev.jobweaver.local.bench;

import java.util.Arrays;
import java.util.stream.Collectors;

/** The benchmark's workloads, in the order they run (burst first: sleepers compares itself with it). */
public enum Workload {
    /** N no-op jobs as fast as the API takes them. */
    BURST("burst"),
    /** A fixed offered rate for a duration, open loop. */
    STEADY("steady"),
    /** Like burst, with 5% of the jobs sleeping 5 s. */
    SLEEPERS("sleepers"),
    /** Like burst, with 10% of the jobs failing their first attempt. */
    RETRIES("retries");

    private final String cliName;

    Workload(String cliName) {
        this.cliName = cliName;
    }

    /** The name on the command line and in file names. */
    public String cliName() {
        return cliName;
    }

    /** The workload called {@code name}, or an {@link IllegalArgumentException} listing the valid names. */
    public static Workload named(String name) {
        return Arrays.stream(values()).filter(w -> w.cliName.equals(name)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown workload '" + name + "'; valid: "
                        + Arrays.stream(values()).map(Workload::cliName).collect(Collectors.joining(", "))));
    }
}
