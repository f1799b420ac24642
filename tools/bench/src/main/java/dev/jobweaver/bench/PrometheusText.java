package dev.jobweaver.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The samples of a Prometheus text exposition, what a service's {@code /q/metrics} answers: {@code name{labels} value
 * [timestamp]} per line, {@code #} lines are comments. An OpenMetrics exemplar after the value is ignored.
 */
public final class PrometheusText {

    /**
     * One sample.
     *
     * @param name e.g. {@code jobweaver_jobs_dispatched_total}
     * @param labels its labels, unescaped
     * @param value its value ({@code NaN}, {@code +Inf} and {@code -Inf} included)
     */
    public record Sample(String name, Map<String, String> labels, double value) {

        public Sample {
            labels = Collections.unmodifiableMap(new LinkedHashMap<>(labels));
        }
    }

    private PrometheusText() {
    }

    /** Every sample of {@code body}; a line that cannot be read is skipped. */
    public static List<Sample> parse(String body) {
        List<Sample> samples = new ArrayList<>();
        for (String line : body.split("\n")) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            Sample sample = sample(l);
            if (sample != null) {
                samples.add(sample);
            }
        }
        return samples;
    }

    /**
     * The sum of the samples named {@code name} whose labels include every one of {@code labels}; NaN when there is
     * none (a counter the service does not have, or not yet).
     */
    public static double sum(List<Sample> samples, String name, Map<String, String> labels) {
        double sum = 0;
        boolean found = false;
        for (Sample s : samples) {
            if (s.name().equals(name) && s.labels().entrySet().containsAll(labels.entrySet())) {
                sum += s.value();
                found = true;
            }
        }
        return found ? sum : Double.NaN;
    }

    /** One line's sample, or null when it is not one. */
    static Sample sample(String line) {
        int i = 0;
        while (i < line.length() && line.charAt(i) != '{' && !Character.isWhitespace(line.charAt(i))) {
            i++;
        }
        String name = line.substring(0, i);
        if (name.isEmpty()) {
            return null;
        }
        Map<String, String> labels = new LinkedHashMap<>();
        if (i < line.length() && line.charAt(i) == '{') {
            i = labels(line, i + 1, labels);
            if (i < 0) {
                return null;
            }
        }
        String[] rest = line.substring(i).strip().split("\\s+");
        if (rest.length == 0 || rest[0].isEmpty()) {
            return null;
        }
        try {
            return new Sample(name, labels, value(rest[0]));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** Reads {@code a="x",b="y"}} from {@code from} into {@code labels}; the index after the brace, -1 if malformed. */
    private static int labels(String line, int from, Map<String, String> labels) {
        int i = from;
        while (i < line.length()) {
            char c = line.charAt(i);
            if (c == '}') {
                return i + 1;
            }
            if (c == ',' || Character.isWhitespace(c)) {
                i++;
                continue;
            }
            int eq = line.indexOf('=', i);
            if (eq < 0 || eq + 1 >= line.length() || line.charAt(eq + 1) != '"') {
                return -1;
            }
            String key = line.substring(i, eq).strip();
            StringBuilder value = new StringBuilder();
            int j = eq + 2;
            while (j < line.length() && line.charAt(j) != '"') {
                char v = line.charAt(j);
                if (v == '\\' && j + 1 < line.length()) {
                    char next = line.charAt(++j);
                    value.append(next == 'n' ? '\n' : next);
                } else {
                    value.append(v);
                }
                j++;
            }
            if (j >= line.length()) {
                return -1;
            }
            labels.put(key, value.toString());
            i = j + 1;
        }
        return -1;
    }

    private static double value(String raw) {
        return switch (raw) {
            case "+Inf", "Inf" -> Double.POSITIVE_INFINITY;
            case "-Inf" -> Double.NEGATIVE_INFINITY;
            case "NaN" -> Double.NaN;
            default -> Double.parseDouble(raw);
        };
    }
}
