package dev.jobweaver.k8s;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * PromQL checked by the Prometheus project's own grammar ({@code @prometheus-io/lezer-promql}), run by node from
 * {@code deploy/k8s/promql}; its packages are installed from the committed package-lock.json ({@code npm ci}) when
 * missing or older than the lock file.
 */
final class PromQl {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** What the parser said about one expression: its errors (none when valid) and the metric names it selects. */
    record Result(String id, String expr, List<String> errors, List<String> metrics) {
    }

    private PromQl() {
    }

    static Path dir() {
        return Overlay.k8sDir().resolve("promql");
    }

    /** Parses each expression (by id); the results in the same order. */
    static synchronized List<Result> check(Map<String, String> expressions) {
        installIfNeeded();
        ArrayNode input = JSON.createArrayNode();
        expressions.forEach((id, expr) -> input.addObject().put("id", id).put("expr", expr));
        try {
            Path in = Files.createTempFile("promql", ".json");
            Files.writeString(in, JSON.writeValueAsString(input));
            Process process = new ProcessBuilder(node(), "check.mjs").directory(dir().toFile())
                    .redirectInput(in.toFile()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            byte[] out = process.getInputStream().readAllBytes();
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException("node check.mjs failed: " + new String(out, StandardCharsets.UTF_8));
            }
            Files.delete(in);
            List<Result> results = new ArrayList<>();
            for (JsonNode r : JSON.readTree(out)) {
                results.add(new Result(r.get("id").asText(), expressions.get(r.get("id").asText()),
                        strings(r.get("errors")), strings(r.get("metrics"))));
            }
            return results;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run node (install Node.js 18 or later, or set NODE)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** One expression's result. */
    static Result check(String expr) {
        Map<String, String> one = new LinkedHashMap<>();
        one.put("expr", expr);
        return check(one).getFirst();
    }

    private static void installIfNeeded() {
        Path installed = dir().resolve("node_modules/.package-lock.json");
        try {
            if (Files.exists(installed) && Files.exists(dir().resolve("node_modules/@prometheus-io/lezer-promql"))
                    && Files.getLastModifiedTime(installed)
                            .compareTo(Files.getLastModifiedTime(dir().resolve("package-lock.json"))) >= 0) {
                return;
            }
            Process npm = new ProcessBuilder(npm(), "ci", "--ignore-scripts", "--no-audit", "--no-fund")
                    .directory(dir().toFile()).redirectErrorStream(true).start();
            String out = new String(npm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!npm.waitFor(300, TimeUnit.SECONDS) || npm.exitValue() != 0) {
                throw new IllegalStateException("npm ci in " + dir() + " failed:\n" + out);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run npm (install Node.js and npm, or set NPM)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String node() {
        return System.getenv().getOrDefault("NODE", "node");
    }

    private static String npm() {
        return System.getenv().getOrDefault("NPM", "npm");
    }

    private static List<String> strings(JsonNode array) {
        List<String> list = new ArrayList<>();
        array.forEach(n -> list.add(n.asText()));
        return list;
    }
}
