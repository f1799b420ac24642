package dev.jobweaver.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.outbox.UnpublishedEvents;
import java.io.IOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.constantpool.PoolEntry;
import java.lang.classfile.constantpool.Utf8Entry;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The api's packages point one way: the features above the infrastructure ({@code outbox}, {@code platform}), and no
 * two features through each other. Read from the compiled main classes (every class name, descriptor and signature in
 * their constant pools), so a reference the imports do not show (a fully qualified name, a parameter type) counts too.
 */
class ApiLayersTest {

    private static final Set<String> INFRASTRUCTURE = Set.of("outbox", "platform");
    /** A class of the api named in a constant pool entry; group 1 is its top package, or its own name at the root. */
    private static final Pattern API_CLASS = Pattern.compile("dev/jobweaver/api/([A-Za-z0-9_]+)");

    /** Top package of the api (the root's classes by their own name) to the other top packages its classes name. */
    private static Map<String, Set<String>> uses;

    @BeforeAll
    static void readClasses() throws IOException, URISyntaxException {
        Path api = Path.of(UnpublishedEvents.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolve("dev/jobweaver/api");
        uses = new TreeMap<>();
        try (Stream<Path> files = Files.walk(api)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
                String from = top(api.relativize(file).toString().replace('\\', '/'));
                Set<String> to = uses.computeIfAbsent(from, ignored -> new TreeSet<>());
                for (PoolEntry entry : ClassFile.of().parse(file).constantPool()) {
                    if (entry instanceof Utf8Entry utf8) {
                        Matcher named = API_CLASS.matcher(utf8.stringValue());
                        while (named.find()) {
                            to.add(named.group(1));
                        }
                    }
                }
                to.remove(from);
            }
        }
    }

    @Test
    void theInfrastructureNamesNoFeature() {
        assertThat(uses).containsKeys("outbox", "platform");
        for (String layer : INFRASTRUCTURE) {
            assertThat(uses.get(layer)).as("what %s names of the api", layer).isSubsetOf(INFRASTRUCTURE);
        }
    }

    @Test
    void noTwoPackagesNameEachOtherThroughAnyPath() {
        List<List<String>> cycles = new ArrayList<>();
        for (String start : uses.keySet()) {
            findCycle(start, start, new ArrayList<>(List.of(start)), new TreeSet<>(), cycles);
        }
        assertThat(cycles).as("package cycles").isEmpty();
    }

    /** Adds the first path from {@code at} back to {@code start} through packages not visited yet. */
    private static void findCycle(String start, String at, List<String> path, Set<String> visited,
                                  List<List<String>> cycles) {
        for (String next : uses.getOrDefault(at, Set.of())) {
            if (next.equals(start)) {
                cycles.add(List.copyOf(path));
                return;
            }
            if (visited.add(next)) {
                path.add(next);
                findCycle(start, next, path, visited, cycles);
                path.removeLast();
            }
        }
    }

    /** The top package of a class file's path under the api, or the class's own name at the root. */
    private static String top(String relative) {
        int slash = relative.indexOf('/');
        return slash < 0 ? relative.split("[$.]", 2)[0] : relative.substring(0, slash);
    }
}
