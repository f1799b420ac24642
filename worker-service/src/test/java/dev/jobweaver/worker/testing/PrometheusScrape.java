package dev.jobweaver.worker.testing;

import static io.restassured.RestAssured.given;

import java.util.Arrays;

/** Reads the worker's own /q/metrics, as Prometheus would. */
public final class PrometheusScrape {

    private PrometheusScrape() {
    }

    /** The sum of the samples of {@code metric} whose labels contain every one of {@code labels}; 0 when none. */
    public static double sum(String metric, String... labels) {
        String body = given().get("/q/metrics").then().statusCode(200).extract().asString();
        return body.lines()
                .filter(l -> l.startsWith(metric + "{") || l.startsWith(metric + " "))
                .filter(l -> Arrays.stream(labels).allMatch(l::contains))
                .mapToDouble(PrometheusScrape::value)
                .sum();
    }

    /** The value of a sample line: the first token after the labels (an exemplar may follow it). */
    private static double value(String line) {
        int labelsEnd = line.indexOf('}');
        String rest = (labelsEnd < 0 ? line.substring(line.indexOf(' ')) : line.substring(labelsEnd + 1)).trim();
        return Double.parseDouble(rest.split("\\s+")[0]);
    }

    /** Whether any sample of {@code metric} has all of {@code labels}. */
    public static boolean present(String metric, String... labels) {
        String body = given().get("/q/metrics").then().statusCode(200).extract().asString();
        return body.lines()
                .filter(l -> l.startsWith(metric + "{"))
                .anyMatch(l -> Arrays.stream(labels).allMatch(l::contains));
    }
}
