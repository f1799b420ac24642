package dev.jobweaver.e2e;

import static dev.jobweaver.e2e.support.Browser.byTestid;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.e2e.support.E2ePlatform;
import dev.jobweaver.e2e.support.Jobs;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

/**
 * The dashboard's dead letters in a real (headless) Chromium, on the API's {@code /api/dead-letters} endpoints: two
 * jobs that fail with {@code maxRetryCount} 0 become dead letters; one is requeued with an edited payload that passes
 * and completes under the same id, the other is discarded with a reason and is then listed under {@code DISCARDED}.
 */
class DashboardDeadLettersIT extends InBrowser {

    @Test
    void aDeadLetterIsRequeuedWithAnEditedPayloadAndAnotherDiscardedWithAReason() {
        String tenant = "dash-dl-" + UUID.randomUUID().toString().substring(0, 8);
        UUID requeued = api.submitAccepted(Jobs.ofTenant(Jobs.failing("dead on arrival", 0), tenant));
        UUID discarded = api.submitAccepted(Jobs.ofTenant(Jobs.failing("dead on arrival", 0), tenant));
        Map<UUID, JsonNode> failed = api.awaitAll(List.of(requeued, discarded),
                j -> "FAILED".equals(j.path("status").asText()), Duration.ofSeconds(60));
        assertThat(failed.values()).allSatisfy(j -> assertThat(j.path("status").asText()).isEqualTo("FAILED"));

        browser.page("#/dead-letters?tenant=" + tenant);
        awaitRows(2);
        assertThat(browser.error()).isNull();
        browser.screenshot("dead-letters");

        // requeue one with a payload that passes
        browser.click(() -> row(requeued).findElement(byTestid("dl-requeue")));
        WebElement payload = browser.testid("dl-requeue-payload");
        browser.await(d -> payload.getAttribute("value").contains("dead on arrival"));
        payload.clear();
        payload.sendKeys("{\"steps\":[{\"action\":\"LOG\",\"message\":\"second life\"}]}");
        browser.testid("dl-requeue-retries").sendKeys("1");
        browser.screenshot("dead-letters-requeue");
        browser.testid("dl-requeue-confirm").click();
        browser.await(d -> browser.testid("dl-notice").getText().contains("requeued"));
        JsonNode again = api.awaitAll(List.of(requeued), j -> "COMPLETED".equals(j.path("status").asText()),
                Duration.ofSeconds(60)).get(requeued);
        assertThat(again.path("status").asText()).isEqualTo("COMPLETED");
        assertThat(again.path("payload").toString()).contains("second life");

        // its history is one list: the attempt that failed, then the one after the requeue
        List<String> outcomes = awaitOutcomes(requeued, 2);
        assertThat(outcomes).containsExactly("FAILED", "COMPLETED");
        browser.page("#/jobs/" + requeued);
        browser.await(d -> browser.testid("job-attempts").isDisplayed()
                && browser.testid("job-attempts").getText().contains("COMPLETED"));
        String shown = browser.testid("job-attempts").getText();
        assertThat(shown).contains("FAILED").contains("dead on arrival").contains("COMPLETED");
        browser.screenshot("job-attempts-after-requeue");
        browser.page("#/dead-letters?tenant=" + tenant);
        awaitRows(1);

        // discard the other with a reason
        browser.click(() -> row(discarded).findElement(byTestid("dl-discard")));
        browser.testid("dl-discard-reason").sendKeys("a test's job, not needed");
        browser.testid("dl-discard-confirm").click();
        browser.await(d -> browser.testid("dl-notice").getText().contains("discarded"));
        awaitRows(0);
        assertThat(browser.error()).isNull();

        new Select(browser.testid("dl-state")).selectByValue("DISCARDED");
        browser.testid("dl-search").click();
        awaitRows(1);
        assertThat(browser.text(d -> row(discarded).findElement(byTestid("dl-state-value")).getText()))
                .isEqualTo("DISCARDED");
        browser.screenshot("dead-letters-discarded");
        JsonNode archived = api.get("/api/dead-letters?tenant=" + tenant + "&state=DISCARDED").body();
        assertThat(archived.path("deadLetters")).hasSize(1);
        assertThat(archived.path("deadLetters").get(0).path("jobId").asText()).isEqualTo(discarded.toString());
    }

    /** Waits for {@code count} rows; fails at once with the API's message when the page shows an error. */
    private static void awaitRows(int count) {
        browser.await(d -> {
            String error = browser.error();
            if (error != null) {
                throw new AssertionError("the dead-letter page shows the API's error: " + error);
            }
            return d.findElements(By.cssSelector("[data-testid='dl-row']")).size() == count
                    && (count > 0 || !d.findElements(By.cssSelector("[data-testid='dl-results'] p")).isEmpty());
        });
    }

    private static WebElement row(UUID jobId) {
        return browser.driver().findElement(By.cssSelector("[data-testid='dl-row'][data-job-id='" + jobId + "']"));
    }

    /** The outcomes of {@code jobId}'s attempts once it has {@code count} reported ones (the history may trail). */
    private static List<String> awaitOutcomes(UUID jobId, int count) {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        List<String> outcomes = new java.util.ArrayList<>();
        while (System.nanoTime() < deadline) {
            outcomes.clear();
            api.get("/api/jobs/" + jobId + "/attempts").body().path("attempts")
                    .forEach(a -> outcomes.add(a.path("outcome").asText()));
            if (outcomes.size() >= count && !outcomes.contains("UNREPORTED") && !outcomes.contains("RUNNING")) {
                return outcomes;
            }
            E2ePlatform.awaitQuietly(200);
        }
        return outcomes;
    }
}
