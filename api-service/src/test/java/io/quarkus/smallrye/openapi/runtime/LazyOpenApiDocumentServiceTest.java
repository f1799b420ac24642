package io.quarkus.smallrye.openapi.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.quarkus.smallrye.openapi.OpenApiFilter;
import io.smallrye.openapi.runtime.io.Format;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The document is built on its first request, not when the extension asks at start-up. Without Quarkus: here no build
 * stored a document, so the one built is the extension's empty document. /q/openapi's content is checked by
 * ObservabilityEndpointsTest and, on the packaged service, StartupIT.
 */
class LazyOpenApiDocumentServiceTest {

    private static final String DOCUMENT = "<default>";

    @Test
    void theStartUpCallOnlyRecordsWhatToBuild() {
        LazyOpenApiDocumentService service = new LazyOpenApiDocumentService();

        service.prepareDocument(null, Map.of(OpenApiFilter.RunStage.RUNTIME_STARTUP, List.of()), DOCUMENT);

        assertThat(service.pending(DOCUMENT)).isTrue();
    }

    @Test
    void theFirstRequestBuildsTheDocumentOnce() {
        LazyOpenApiDocumentService service = new LazyOpenApiDocumentService();
        service.prepareDocument(null, Map.of(), DOCUMENT);

        byte[] first = service.getDocument(DOCUMENT, Format.JSON);

        assertThat(service.pending(DOCUMENT)).isFalse();
        assertThat(service.getDocument(DOCUMENT, Format.JSON)).isEqualTo(first);
    }

    @Test
    void aDocumentNeverAskedForIsNotBuilt() {
        LazyOpenApiDocumentService service = new LazyOpenApiDocumentService();
        service.prepareDocument(null, Map.of(), DOCUMENT);

        service.getDocument("other", Format.YAML);

        assertThat(service.pending(DOCUMENT)).isTrue();
    }
}
