package dev.jobweaver.common.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/configuration.md lists every {@code jobweaver.*} key the services read, with the default they run with, and
 * names no key that nothing reads.
 *
 * <p>The keys come from the services' sources, not from their classes: no module's test classpath holds all three
 * services, and the sources say exactly what SmallRye reads. A {@code @ConfigMapping} interface gives its keys by its
 * methods (kebab-case, or {@code @WithName}), nested interfaces as groups and {@code Map}s as a {@code *} segment; a
 * {@code @ConfigProperty} gives its {@code name}. The default a service runs with is the value its
 * {@code application.properties} (the worker runtime's {@code microprofile-config.properties}) sets outside any profile,
 * else the {@code @WithDefault}.
 */
class ConfigurationDocumentedTest {

    private static final List<String> MODULES = List.of("common", "api-service", "scheduler-service", "worker-runtime",
            "worker-service");
    private static final Pattern MAPPING = Pattern.compile(
            "@ConfigMapping\\(\\s*prefix\\s*=\\s*\"([^\"]+)\"\\s*\\)[^{]*?interface\\s+(\\w+)");
    private static final Pattern INTERFACE = Pattern.compile("\\binterface\\s+(\\w+)\\s*(?:extends\\s+([\\w\\s,]+?))?\\s*\\{");
    private static final Pattern MEMBER = Pattern.compile(
            "(?s)^((?:@\\w+(?:\\((?:[^()\"]|\"[^\"]*\")*\\))?\\s*)*)([\\w.<>,?\\s\\[\\]]+?)\\s+(\\w+)\\s*\\(\\s*\\)$");
    private static final Pattern WITH_DEFAULT = Pattern.compile("@WithDefault\\(\"((?:[^\"\\\\]|\\\\.)*)\"\\)");
    private static final Pattern WITH_NAME = Pattern.compile("@WithName\\(\"([^\"]+)\"\\)");
    private static final Pattern CONFIG_PROPERTY = Pattern.compile(
            "@(?:ConfigProperty|LookupIfProperty|LookupUnlessProperty|IfBuildProperty)\\(\\s*name\\s*=\\s*(\"[^\"]+\"|\\w+)([^)]*)\\)");
    private static final Pattern DEFAULT_VALUE = Pattern.compile("defaultValue\\s*=\\s*\"([^\"]*)\"");
    private static final Pattern DOC_KEY = Pattern.compile("^`([a-z][\\w.\"<>*-]+)`");

    /** Each interface's body with its parents' bodies appended, by simple name: the first source that declares it. */
    private final Map<String, String> interfaces = new LinkedHashMap<>();
    /** The same, of the source being walked: a nested interface's name wins over one of another source. */
    private Map<String, String> local = Map.of();
    private final Map<String, List<String>> codeKeys = new TreeMap<>();
    private final Map<String, List<String>> propertyDefaults = new TreeMap<>();
    private final Map<String, String> documented = documentedKeys();

    ConfigurationDocumentedTest() {
        List<String> sources = sources();
        sources.forEach(this::collectInterfaces);
        sources.forEach(this::collectKeys);
        sources.forEach(this::collectLogCategories);
        MODULES.forEach(this::collectPropertyDefaults);
    }

    @Test
    void theSourcesYieldKeysSoTheCheckCanFail() {
        assertThat(codeKeys).containsKeys("jobweaver.scheduler.backoff.base", "jobweaver.worker.max-in-flight",
                "jobweaver.security.rate-limit.tenants.*.per-second", "jobweaver.schema.version");
    }

    @Test
    void everyKeyTheServicesReadIsDocumented() {
        List<String> missing = codeKeys.keySet().stream()
                .filter(key -> key.startsWith("jobweaver.") && !documented.containsKey(key)).toList();
        assertThat(missing).as("keys the code reads that docs/configuration.md does not list").isEmpty();
    }

    @Test
    void everyDocumentedKeyIsRead() {
        List<String> unknown = documented.keySet().stream()
                .filter(key -> !codeKeys.containsKey(key) && !setInProperties(key)).toList();
        assertThat(unknown).as("keys docs/configuration.md lists that no service reads or sets").isEmpty();
    }

    @Test
    void everyDocumentedDefaultIsTheOneTheServicesRunWith() {
        List<String> wrong = new ArrayList<>();
        codeKeys.forEach((key, defaults) -> {
            List<String> effective = propertyDefaults.getOrDefault(key, defaults);
            String cell = documented.get(key);
            if (cell == null || effective.isEmpty()) {
                return;
            }
            String doc = cell.replace("`", "").replace(",", "");
            boolean claimsOne = effective.stream().anyMatch(value -> doc.equals(value) || doc.startsWith(value + " "));
            // services that run with different values: the row must not name one of them as the default
            if (effective.size() > 1 ? claimsOne || doc.matches("\\d.*") : !claimsOne) {
                wrong.add(key + ": documented '" + cell + "', the services run with " + effective);
            }
        });
        assertThat(wrong).as("defaults in docs/configuration.md that differ from the code").isEmpty();
    }

    private boolean setInProperties(String key) {
        return propertyDefaults.containsKey(key) || MODULES.stream().anyMatch(module -> {
            String text = properties(module);
            return text.contains(key + "=");
        });
    }

    /** The first cell of every table row of configuration.md's service settings that names a key, with its default. */
    private static Map<String, String> documentedKeys() {
        String text = RepositoryDocs.read("docs/configuration.md");
        String settings = text.substring(text.indexOf("\n## Service settings"));
        Map<String, String> keys = new TreeMap<>();
        for (String line : settings.lines().filter(l -> l.startsWith("| `")).toList()) {
            String[] cells = line.substring(1).split("\\|");
            for (String name : cells[0].strip().split(",\\s*")) {
                Matcher m = DOC_KEY.matcher(name.strip());
                if (m.find()) {
                    String key = m.group(1).replaceAll("\"<[^>]+>\"|<[^>]+>", "*");
                    keys.put(key, cells.length >= 3 ? cells[1].strip() : null);
                }
            }
        }
        return keys;
    }

    private static List<String> sources() {
        Path root = RepositoryDocs.root();
        List<String> sources = new ArrayList<>();
        for (String module : MODULES) {
            try (Stream<Path> files = Files.walk(root.resolve(module).resolve("src/main/java"))) {
                for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                    sources.add(withoutComments(Files.readString(file)));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return sources;
    }

    private void collectInterfaces(String source) {
        interfaces(source).forEach(interfaces::putIfAbsent);
    }

    private Map<String, String> interfaces(String source) {
        Map<String, String> found = new LinkedHashMap<>();
        Matcher m = INTERFACE.matcher(source);
        while (m.find()) {
            found.put(m.group(1), source.substring(m.end(), closing(source, m.end() - 1)) + ";"
                    + (m.group(2) == null ? "" : String.join(";", parents(m.group(2)))));
        }
        return found;
    }

    /** The parents' bodies, as far as sources declare them (a second pass sees every source). */
    private List<String> parents(String names) {
        return Stream.of(names.split(",")).map(String::strip).map(name -> interfaces.getOrDefault(name, "")).toList();
    }

    private void collectKeys(String source) {
        local = interfaces(source);
        Matcher mapping = MAPPING.matcher(source);
        while (mapping.find()) {
            walk(mapping.group(1), local.get(mapping.group(2)));
        }
        Matcher property = CONFIG_PROPERTY.matcher(source);
        while (property.find()) {
            String name = property.group(1).startsWith("\"")
                    ? property.group(1).substring(1, property.group(1).length() - 1)
                    : constant(source, property.group(1));
            Matcher def = DEFAULT_VALUE.matcher(property.group(2));
            codeKeys.put(name, def.find() ? List.of(def.group(1)) : List.of());
        }
    }

    /** A logger the code names is a key too: its level is what an operator sets. */
    private void collectLogCategories(String source) {
        Matcher m = Pattern.compile("getLogger\\((?:\"([^\"]+)\"|([A-Z_]+))\\)").matcher(source);
        while (m.find()) {
            String category = m.group(1) != null ? m.group(1) : constant(source, m.group(2));
            codeKeys.put("quarkus.log.category.\"" + category + "\".level", List.of());
        }
    }

    /** The keys of one mapping interface's body: its methods at depth 0; nested blocks are skipped. */
    private void walk(String prefix, String body) {
        StringBuilder member = new StringBuilder();
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c == '"') {
                int end = body.indexOf('"', i + 1);
                while (body.charAt(end - 1) == '\\') {
                    end = body.indexOf('"', end + 1);
                }
                member.append(body, i, end + 1);
                i = end;
            } else if (c == '{') {
                i = closing(body, i);
                member.setLength(0);
            } else if (c == ';') {
                member(prefix, member.toString().strip());
                member.setLength(0);
            } else {
                member.append(c);
            }
        }
    }

    private void member(String prefix, String declaration) {
        Matcher m = MEMBER.matcher(declaration);
        if (!m.matches() || declaration.startsWith("static") || declaration.contains(" static ")) {
            return;
        }
        String annotations = m.group(1);
        String type = m.group(2).replaceAll("\\s+", "");
        Matcher named = WITH_NAME.matcher(annotations);
        String key = prefix + "." + (named.find() ? named.group(1) : kebab(m.group(3)));
        Matcher mapOf = Pattern.compile("Map<\\w+,(\\w+)>").matcher(type);
        if (mapOf.matches()) {
            key = key + ".*";
            type = mapOf.group(1);
        }
        String group = type.replaceAll("^Optional<(\\w+)>$", "$1");
        String body = local.getOrDefault(group, interfaces.get(group));
        if (body != null) {
            walk(key, body);
            return;
        }
        Matcher def = WITH_DEFAULT.matcher(annotations);
        codeKeys.put(key, def.find() ? List.of(def.group(1).replace("\\\\", "\\")) : List.of());
    }

    private void collectPropertyDefaults(String module) {
        Properties properties = new Properties();
        try {
            properties.load(new StringReader(properties(module)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        properties.stringPropertyNames().stream().filter(k -> k.startsWith("jobweaver."))
                .forEach(k -> propertyDefaults.merge(k, List.of(properties.getProperty(k)), (a, b) ->
                        a.contains(b.getFirst()) ? a : Stream.concat(a.stream(), b.stream()).toList()));
    }

    /**
     * The module's own settings: a service's {@code application.properties}, the worker runtime's
     * {@code META-INF/microprofile-config.properties} (the defaults every worker application starts from).
     */
    private static String properties(String module) {
        Path resources = RepositoryDocs.root().resolve(module).resolve("src/main/resources");
        StringBuilder text = new StringBuilder();
        for (Path file : List.of(resources.resolve("application.properties"),
                resources.resolve("META-INF/microprofile-config.properties"))) {
            try {
                if (Files.exists(file)) {
                    text.append(Files.readString(file)).append('\n');
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return text.toString();
    }

    private static String constant(String source, String name) {
        Matcher m = Pattern.compile("\\b" + name + "\\s*=\\s*\"([^\"]+)\"").matcher(source);
        if (!m.find()) {
            throw new IllegalStateException("no string constant " + name + " in its class");
        }
        return m.group(1);
    }

    private static String kebab(String method) {
        return method.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(java.util.Locale.ROOT);
    }

    /** The index of the brace that closes the one at {@code open}, skipping string literals. */
    private static int closing(String text, int open) {
        int depth = 0;
        for (int i = open; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"') {
                i = text.indexOf('"', i + 1);
                while (text.charAt(i - 1) == '\\' && text.charAt(i - 2) != '\\') {
                    i = text.indexOf('"', i + 1);
                }
            } else if (c == '\'') {
                i = text.indexOf('\'', i + 2);
            } else if (c == '{') {
                depth++;
            } else if (c == '}' && --depth == 0) {
                return i;
            }
        }
        throw new IllegalStateException("unbalanced braces");
    }

    /** The source without its comments; string literals (which may hold {@code //}) are kept as they are. */
    private static String withoutComments(String source) {
        StringBuilder out = new StringBuilder(source.length());
        for (int i = 0; i < source.length(); i++) {
            char c = source.charAt(i);
            if (c == '"' && source.startsWith("\"\"\"", i)) {
                int end = source.indexOf("\"\"\"", i + 3) + 3;
                out.append(source, i, end);
                i = end - 1;
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                while (source.charAt(j) != c) {
                    j += source.charAt(j) == '\\' ? 2 : 1;
                }
                out.append(source, i, j + 1);
                i = j;
            } else if (source.startsWith("//", i)) {
                i = source.indexOf('\n', i) - 1;
                if (i < 0) {
                    break;
                }
            } else if (source.startsWith("/*", i)) {
                i = source.indexOf("*/", i + 2) + 1;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
