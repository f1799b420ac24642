package dev.jobweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.jobweaver.e2e.support.Browser;
import dev.jobweaver.e2e.support.E2ePlatform;
import dev.jobweaver.e2e.support.JobWeaverClient;
import dev.jobweaver.e2e.support.JobWeaverClient.Answer;
import dev.jobweaver.e2e.support.Jobs;
import dev.jobweaver.e2e.support.NativeScenario;
import dev.jobweaver.local.Platform.Service;
import dev.jobweaver.local.PlatformSecrets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.WebElement;

/**
 * The packaged platform runs secured, as {@code ./jobweaver up} starts it: without credentials the jobs API answers
 * 401 while health and metrics stay open; the admin key the platform keeps in its home works; an admin makes a
 * submitter key for tenant {@code acme}, whose job completes and who cannot see a job of tenant {@code default}; the
 * dashboard asks for a key and works with the admin key.
 */
class SecurityIT {

    private JobWeaverClient admin;
    private JobWeaverClient anonymous;

    @BeforeEach
    void healthy() {
        E2ePlatform.awaitHealthy();
        admin = E2ePlatform.api();
        anonymous = admin.anonymous();
    }

    @Test
    @NativeScenario
    void withoutCredentialsTheApiAnswers401InTheErrorFormat() {
        Answer list = anonymous.get("/api/jobs");
        Answer submit = anonymous.submit(Jobs.noop());

        assertThat(list.status()).as("GET /api/jobs without credentials: " + list.rawBody()).isEqualTo(401);
        assertThat(list.body().path("errorCode").asText()).isEqualTo("API.UNAUTHENTICATED");
        assertThat(submit.status()).as("POST /api/jobs without credentials: " + submit.rawBody()).isEqualTo(401);
        assertThat(submit.body().path("errorCode").asText()).isEqualTo("API.UNAUTHENTICATED");
    }

    @Test
    @NativeScenario
    void aWrongKeyIs401() {
        Answer answer = admin.withKey("jw_" + "x".repeat(43)).get("/api/jobs");

        assertThat(answer.status()).as(answer.rawBody()).isEqualTo(401);
    }

    @Test
    @NativeScenario
    void healthAndMetricsStayOpen() {
        for (String path : List.of("/q/health", "/q/health/ready", "/q/health/live", "/q/metrics")) {
            Answer answer = anonymous.get(path);
            assertThat(answer.status()).as(path + ": " + answer.rawBody()).isEqualTo(200);
        }
    }

    @Test
    @NativeScenario
    void theAdminKeyKeptInThePlatformsHomeWorks() {
        String stored = PlatformSecrets.load(E2ePlatform.get().stack().settings().home()).orElseThrow().adminKey();
        assertThat(stored).isEqualTo(E2ePlatform.adminKey()).matches("jw_[A-Za-z0-9_-]{43}");

        UUID id = admin.withKey(stored).submitAccepted(Jobs.noop());
        Answer read = admin.withKey(stored).get("/api/jobs/" + id);
        assertThat(read.status()).as(read.rawBody()).isEqualTo(200);
    }

    @Test
    @NativeScenario
    void aSubmitterKeyOfAnotherTenantSubmitsJobsThatCompleteAndSeesNoJobOfTenantDefault() {
        UUID ofDefault = admin.submitAccepted(Jobs.ofTenant(Jobs.noop(), "default"));

        JsonNode created = admin.postExpecting("/api/tenants/acme/api-keys",
                "{\"name\":\"ci\",\"roles\":[\"submitter\"]}", 201);
        String key = created.path("key").asText();
        assertThat(key).as("the key, shown this once").startsWith("jw_");
        JobWeaverClient acme = admin.withKey(key);

        UUID ofAcme = acme.submitAccepted(Jobs.noop());
        Map<UUID, JsonNode> done = acme.awaitAll(List.of(ofAcme), JobWeaverClient::terminal, Duration.ofSeconds(60));
        assertThat(done.get(ofAcme)).as("acme's job, read with acme's key").isNotNull();
        assertThat(done.get(ofAcme).path("status").asText()).isEqualTo("COMPLETED");
        assertThat(done.get(ofAcme).path("tenant").asText()).isEqualTo("acme");

        Answer foreign = acme.get("/api/jobs/" + ofDefault);
        assertThat(foreign.status()).as("another tenant's job: " + foreign.rawBody()).isEqualTo(404);
        assertThat(acme.cancel(ofDefault).status()).as("nor can it be cancelled").isEqualTo(404);
        Answer listed = acme.get("/api/jobs?size=100");
        assertThat(listed.status()).as(listed.rawBody()).isEqualTo(200);
        assertThat(listed.body().path("jobs").findValuesAsText("id")).contains(ofAcme.toString())
                .doesNotContain(ofDefault.toString());

        Answer listKeys = acme.get("/api/tenants/acme/api-keys");
        assertThat(listKeys.status()).as("a submitter manages no keys: " + listKeys.rawBody()).isEqualTo(403);
    }

    @Test
    void theDashboardAsksForAKeyAndWorksWithTheAdminKey() {
        String url = E2ePlatform.get().instances(Service.API).getFirst().url();
        try (Browser browser = Browser.open(url)) {
            browser.page("#/jobs");
            WebElement input = browser.testid("api-key-input");
            browser.screenshot("security-key-dialog");
            input.sendKeys(E2ePlatform.adminKey());
            browser.testid("api-key-save").click();

            browser.await(d -> !d.findElement(Browser.byTestid("api-key-dialog")).isDisplayed());
            browser.page("#/overview");
            browser.testid("count-COMPLETED-value");
            assertThat(browser.error()).as("the page's error after the key was entered").isNull();
        }
    }
}
