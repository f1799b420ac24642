package io.quarkus.smallrye.openapi.runtime;

import io.quarkus.arc.Unremovable;
import io.quarkus.arc.profile.IfBuildProfile;
import io.quarkus.smallrye.openapi.OpenApiFilter;
import io.quarkus.smallrye.openapi.runtime.filter.AutoSecurityFilter;
import io.smallrye.openapi.runtime.io.Format;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The API's OpenAPI document ({@code /q/openapi}), built on its first request instead of while the service starts.
 *
 * <p>Why: Quarkus 3.31 to 3.35 build the document at start-up (quarkusio/quarkus#54826; later Quarkus builds it on
 * first request again when no filter must run at start-up, as here). Building it means parsing the 165 KB document
 * the build stored, with a YAML parser: 15% of the native API's start-up CPU samples, before the collections its
 * garbage causes, and the same work interpreted in the JVM (docs/benchmark.md, "JVM and native"). Nothing in the
 * service reads the document; only clients of {@code /q/openapi} do.
 *
 * <p>How: this alternative replaces the extension's bean. The extension's start-up call of {@link #prepareDocument}
 * only records its arguments, and the first {@link #getDocument} of that document makes the same call, so the
 * document served is the one the extension would have built. It lives in the extension's package because the method
 * it overrides is package-private, which works only where one class loader loads both: the packaged service, on the
 * JVM or native. Under {@code @QuarkusTest} the extension comes from a parent class loader, so this bean is built for
 * the prod profile only and the tests' services build the document at start-up as before. Remove it once the Quarkus
 * in use builds the document lazily itself.
 *
 * <p>Threads: the start-up thread records; {@code /q/openapi} is a blocking route, so a worker thread of the first
 * request builds the document, and a request that arrives meanwhile waits for it (the methods are synchronized).
 *
 * <p>Unremovable: the extension looks its service up by type at run time, which ArC cannot see when it removes the
 * beans nothing injects.
 */
@IfBuildProfile("prod")
@Unremovable
@Alternative
@Priority(1)
@ApplicationScoped
public class LazyOpenApiDocumentService extends OpenApiDocumentService {

    /** What the extension asked for at start-up, per document name, until the document is first requested. */
    private final Map<String, Preparation> pending = new HashMap<>();

    private record Preparation(AutoSecurityFilter autoSecurityFilter,
            Map<OpenApiFilter.RunStage, List<String>> filters) {
    }

    @Override
    synchronized void prepareDocument(AutoSecurityFilter autoSecurityFilter,
            Map<OpenApiFilter.RunStage, List<String>> filters, String documentName) {
        pending.put(documentName, new Preparation(autoSecurityFilter, filters));
    }

    @Override
    public byte[] getDocument(String documentName, Format format) {
        prepare(documentName);
        return super.getDocument(documentName, format);
    }

    /** Whether {@code documentName} was asked for at start-up and not built yet. */
    synchronized boolean pending(String documentName) {
        return pending.containsKey(documentName);
    }

    private synchronized void prepare(String documentName) {
        Preparation preparation = pending.remove(documentName);
        if (preparation != null) {
            super.prepareDocument(preparation.autoSecurityFilter(), preparation.filters(), documentName);
        }
    }
}
