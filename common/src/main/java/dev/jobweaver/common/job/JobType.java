package dev.jobweaver.common.job;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.util.regex.Pattern;

/**
 * The kind of a job: a name that a worker's handler declares. The platform keeps no list of types: a job of a type no
 * live worker declares is accepted and waits for one, so a team's own handler needs no change to the platform.
 * {@link #SIMULATION} and {@link #HTTP} are the handlers the standard worker brings; the API checks their payloads'
 * shape ({@link Payloads#check}), and the payload of any other type is the handler's business: a JSON object.
 *
 * <p>A name is {@value #PATTERN}; written to JSON as that string.
 *
 * @param name the type's name, as a handler declares it and a client submits it
 */
@RegisterForReflection
public record JobType(String name) {

    /** What a type's name looks like. */
    public static final String PATTERN = "[A-Za-z][A-Za-z0-9_.-]{0,99}";
    private static final Pattern NAME = Pattern.compile(PATTERN);

    /** A job whose payload is a list of simulated {@link Step}s ({@link JobPayload}). */
    public static final JobType SIMULATION = new JobType("SIMULATION");
    /** One outbound HTTP request ({@link HttpCallPayload}); its status and a bounded body are the result. */
    public static final JobType HTTP = new JobType("HTTP");

    /** IllegalArgumentException naming the rule if {@code name} is not a type's name. */
    public JobType {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(problem(name));
        }
    }

    /** The type named {@code name}; the built-in constants for theirs. IllegalArgumentException if malformed. */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static JobType of(String name) {
        if (SIMULATION.name.equals(name)) {
            return SIMULATION;
        }
        if (HTTP.name.equals(name)) {
            return HTTP;
        }
        return new JobType(name);
    }

    /** Whether {@code name} is a well-formed type name. */
    public static boolean isValid(String name) {
        return name != null && NAME.matcher(name).matches();
    }

    /** Why {@code name} is not a type's name: "a job type must be ..., got '...'". */
    public static String problem(String name) {
        if (name == null) {
            return "a job type is required";
        }
        String shown = name.length() > 40 ? name.substring(0, 40) + "..." : name;
        return "a job type must be a letter then at most 99 letters, digits, '_', '.' or '-' (" + PATTERN + "), got '"
                + shown + "'";
    }

    /** Whether the standard worker brings this type's handler, so the API knows its payload's shape. */
    public boolean builtIn() {
        return equals(SIMULATION) || equals(HTTP);
    }

    @JsonValue
    @Override
    public String name() {
        return name;
    }

    @Override
    public String toString() {
        return name;
    }
}
