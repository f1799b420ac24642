package dev.jobweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.e2e.support.E2ePlatform;
import dev.jobweaver.e2e.support.HealthyPlatform;
import dev.jobweaver.e2e.support.JobWeaverClient;
import dev.jobweaver.e2e.support.JobWeaverClient.Answer;
import org.junit.jupiter.api.Test;

/**
 * The packaged API serves its OpenAPI document, which it builds on the first request instead of at start-up
 * ({@code LazyOpenApiDocumentService}, a bean of the packaged service only: the API's own suite never runs it). The
 * native lane checks the same on the executable (the API's {@code StartupIT}).
 */
@HealthyPlatform
class OpenApiServedIT {

    @Test
    void theDocumentBuiltOnRequestDescribesTheApiInBothFormats() {
        JobWeaverClient anonymous = E2ePlatform.api().anonymous();

        Answer json = anonymous.get("/q/openapi?format=json");
        Answer yaml = anonymous.get("/q/openapi");

        assertThat(json.status()).as(json.rawBody()).isEqualTo(200);
        assertThat(json.body().path("paths").has("/api/jobs")).as("paths has /api/jobs").isTrue();
        assertThat(json.body().path("components").path("schemas").has("JobRequest")).as("schema JobRequest").isTrue();
        assertThat(yaml.status()).isEqualTo(200);
        assertThat(yaml.rawBody()).contains("/api/jobs/{id}:", "JobRequest:");
    }
}
