package dev.jobweaver.scheduler.testing;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import java.time.Duration;

/** What the scheduler's readiness shows once it is up, in the test's JVM or as the native executable. */
public final class Readiness {

    private Readiness() {
    }

    /**
     * Waits up to 30 s until {@code /q/health/ready} answers UP and names the reactive PostgreSQL client and the Kafka
     * channels: the consumers of the scheduler's inputs and its two producers.
     */
    public static void awaitDatabaseAndKafka() {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> given().get("/q/health/ready")
                .then().statusCode(200)
                .body("status", equalTo("UP"))
                .body(containsString("Reactive PostgreSQL"))
                .body(containsString("Reactive Messaging"))
                .body(containsString("job-created-in"))
                .body(containsString("job-completed-in"))
                .body(containsString("schedules-in"))
                .body(containsString("workflow-runs-in"))
                .body(containsString("tenant-limits-in"))
                .body(containsString("scheduler-events-out"))
                .body(containsString("quarantine-out")));
    }
}
