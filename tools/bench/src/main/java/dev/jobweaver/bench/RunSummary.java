package dev.jobweaver.bench;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.local.Platform;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;

/**
 * One bench run read back from the {@code summary.json} {@link SummaryJson} wrote into its folder.
 *
 * @param folder the run's folder
 * @param root the summary
 */
record RunSummary(Path folder, JsonNode root) {

    /** The summary's name in a run's folder. */
    static final String FILE = "summary.json";

    /**
     * Reads the summary in {@code folder}.
     *
     * @throws IllegalArgumentException naming the problem when the folder does not exist or is not a folder, holds
     *                                  no summary, or its summary is not JSON, not a bench summary or of a format
     *                                  version {@link SummaryJson#FORMAT_VERSION} is not
     */
    static RunSummary load(Path folder, ObjectMapper json) {
        if (!Files.exists(folder)) {
            throw new IllegalArgumentException(folder + " does not exist");
        }
        if (!Files.isDirectory(folder)) {
            throw new IllegalArgumentException(folder + " is not a folder: name the folder a bench run wrote its "
                    + "figures to");
        }
        Path file = folder.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            throw new IllegalArgumentException(folder + " holds no " + FILE + ": it is not a folder a bench run "
                    + "wrote, or that run did not finish");
        }
        JsonNode root;
        try {
            root = json.readTree(file.toFile());
        } catch (JacksonException e) {
            throw new IllegalArgumentException(file + " is not JSON: " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + file + ": " + e.getMessage(), e);
        }
        if (root == null || !root.isObject() || !root.path("workloads").isArray()) {
            throw new IllegalArgumentException(file + " is not a bench summary: it has no workloads");
        }
        // a summary without the field has the shape of version 1, the first one
        JsonNode version = root.path("formatVersion");
        if (!version.isMissingNode() && !(version.isIntegralNumber()
                && version.asLong() == SummaryJson.FORMAT_VERSION)) {
            throw new IllegalArgumentException(file + " is of format version " + version + ", which this bench "
                    + "does not read (it reads version " + SummaryJson.FORMAT_VERSION + "): compare it with the "
                    + "bench that wrote it");
        }
        return new RunSummary(folder, root);
    }

    /** What ran the services: {@code JVM} or {@code native}; a summary that does not say is of the JVM. */
    String runtime() {
        return root.path("platform").path("runtime").asText(Platform.RUNTIME_JVM);
    }

    /** When the run began, to the second, e.g. {@code 2026-11-29 23:50:01Z}; as written when it is no instant. */
    String started() {
        String raw = root.path("startedAt").asText("");
        try {
            return Instant.parse(raw).truncatedTo(ChronoUnit.SECONDS).toString().replace('T', ' ');
        } catch (DateTimeParseException e) {
            return raw;
        }
    }

    /** The column title of this run: its runtime, start and folder name, one a line. */
    String title() {
        return runtime() + "\n" + started() + "\n" + folder.getFileName();
    }
}
