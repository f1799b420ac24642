package dev.jobweaver.k8s;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;

/**
 * A service's own settings and sources as the repository holds them. The worker is two modules: the worker runtime
 * (its {@code META-INF/microprofile-config.properties}, which every worker application starts from) and the standard
 * worker's own {@code application.properties}, which overrides it.
 */
final class ServiceConfig {

    private ServiceConfig() {
    }

    /** The modules whose sources make {@code service}, the runtime first. */
    static List<Path> modules(String service) {
        Path repo = Overlay.repoDir();
        return service.equals("worker-service") ? List.of(repo.resolve("worker-runtime"), repo.resolve(service))
                : List.of(repo.resolve(service));
    }

    /** The settings {@code service} runs with outside the environment: each module's, a later one's winning. */
    static Properties properties(String service) {
        Properties merged = new Properties();
        for (Path module : modules(service)) {
            for (Path file : List.of(module.resolve("src/main/resources/META-INF/microprofile-config.properties"),
                    module.resolve("src/main/resources/application.properties"))) {
                if (!Files.exists(file)) {
                    continue;
                }
                try (var reader = Files.newBufferedReader(file)) {
                    Properties own = new Properties();
                    own.load(reader);
                    merged.putAll(own);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        return merged;
    }
}
