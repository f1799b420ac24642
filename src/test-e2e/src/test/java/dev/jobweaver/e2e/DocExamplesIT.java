package dev.jobweaver.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.e2e.support.E2ePlatform;
import dev.jobweaver.e2e.support.ExampleWorkers;
import dev.jobweaver.e2e.support.JobWeaverClient;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The examples of docs/api.md and of the README's API tour run, in the order of their page, against the packaged
 * platform with its admin key, and each answers the status, headers and top-level fields its page documents
 * ({@link DocExamples}). They run through bash and curl, as a reader runs them: {@code localhost:8080} is the platform's
 * API, {@code $JOBWEAVER_KEY} its admin key and {@code ./jobweaver key} prints it. An example whose answer is not yet
 * the documented one (a dead letter still on its way) is repeated for up to {@link #PATIENCE}.
 */
class DocExamplesIT {

    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final Pattern PLACEHOLDER = Pattern.compile("<([A-Z][A-Z0-9_]*)>");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path workDir;

    private String api;
    private final Map<String, String> variables = new HashMap<>();

    @BeforeEach
    void platformAndAKeyCommand() throws IOException {
        E2ePlatform.awaitHealthy();
        URI base = URI.create(E2ePlatform.api().baseUrl());
        api = base.getHost() + ":" + base.getPort();
        variables.put("JOBWEAVER_KEY", E2ePlatform.adminKey());
        // `./jobweaver key` as the pages use it, without the launcher: it prints the platform's admin key
        Path key = workDir.resolve("jobweaver");
        Files.writeString(key, "#!/bin/sh\nprintf '%s\\n' \"$JOBWEAVER_KEY\"\n");
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @Test
    void theExamplesOfTheApiReferenceAnswerAsDocumented() throws Exception {
        twoRecordsTheStatusConsumerCannotRead();
        runAll("docs/api.md", 20);
    }

    /**
     * The quarantine's examples review records of {@code job-status} that did not parse: two such records, set aside by
     * the API's status consumer, as a broken producer would leave them.
     */
    private static void twoRecordsTheStatusConsumerCannotRead() throws Exception {
        JobWeaverClient admin = new JobWeaverClient(E2ePlatform.api().baseUrl(), E2ePlatform.adminKey());
        String list = "/api/quarantine?topic=job-status&reason=UNREADABLE&size=100";
        int before = admin.get(list).body().path("records").size();
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, E2ePlatform.get().stack().kafkaBootstrapServers(),
                ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new ByteArraySerializer())) {
            for (int i = 0; i < 2; i++) {
                producer.send(new ProducerRecord<>("job-status", UUID.randomUUID().toString(),
                        "{not json".getBytes(StandardCharsets.UTF_8))).get();
            }
        }
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(250))
                .until(() -> admin.get(list).body().path("records").size() >= before + 2);
    }

    @Test
    void theReadmeTourAnswersAsDocumented() throws Exception {
        runAll("README.md", 10);
    }

    @Test
    void theExamplesOfWritingYourOwnJobTypeAnswerAsDocumented() throws Exception {
        ExampleWorkers.billing(); // the page's worker, as `up --worker-jar` starts it
        runAll("docs/job-types.md", 3);
    }

    @Test
    void theCodeOnTheJobTypesPageIsTheExampleWorkersCode() throws IOException {
        String markdown = Files.readString(root().resolve("docs/job-types.md"));
        Path sources = root().resolve("examples/billing-worker/src/main/java");
        List<String> code = new java.util.ArrayList<>();
        try (var files = Files.walk(sources)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".java")).toList()) {
                code.add(Files.readString(file));
            }
        }
        Matcher blocks = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL).matcher(markdown);
        int count = 0;
        while (blocks.find()) {
            String block = blocks.group(1);
            count++;
            assertThat(code).as("a file of examples/billing-worker holding the page's code block:%n%s", block)
                    .anyMatch(source -> source.contains(block));
        }
        assertThat(count).as("java blocks on the page").isGreaterThanOrEqualTo(3);
    }

    private void runAll(String page, int atLeast) throws Exception {
        String markdown = Files.readString(root().resolve(page));
        assertThat(DocExamples.curlOutsideExamples(markdown))
                .as("curl commands of %s outside ```bash blocks, which no test runs", page).isEmpty();
        List<DocExamples.Example> examples = DocExamples.of(markdown).examples();
        assertThat(examples).as("runnable examples of %s", page).hasSizeGreaterThanOrEqualTo(atLeast);
        for (DocExamples.Example example : examples) {
            run(page, example);
        }
    }

    private void run(String page, DocExamples.Example example) throws Exception {
        String where = page + ":" + example.line();
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        Answer answer = execute(example);
        while (!documented(answer, example) && System.nanoTime() < deadline) {
            Thread.sleep(500);
            answer = execute(example);
        }
        assertThat(answer.status).as("status of the example at %s: %s%nanswer: %s", where, example.command(),
                answer.body).isEqualTo(example.status());
        for (Map.Entry<String, String> header : example.headers().entrySet()) {
            String actual = answer.headers.get(header.getKey());
            assertThat(actual).as("header %s of the example at %s", header.getKey(), where).isNotNull();
            bind(header.getValue(), actual, where);
        }
        if (!example.body().isEmpty()) {
            JsonNode body = JSON.readTree(answer.body);
            Map<String, String> fields = DocumentedFields.of(example.body());
            for (Map.Entry<String, String> field : fields.entrySet()) {
                assertThat(body.has(field.getKey())).as("field %s in the answer of the example at %s: %s",
                        field.getKey(), where, answer.body).isTrue();
                if (field.getValue() != null) {
                    bind(field.getValue(), body.get(field.getKey()).asText(), where);
                }
            }
        }
    }

    /**
     * Whether {@code answer} has the documented status and every documented top-level field: a job's result, say,
     * appears only once it completed, so its example waits for it as for a status.
     */
    private static boolean documented(Answer answer, DocExamples.Example example) throws IOException {
        if (answer.status != example.status()) {
            return false;
        }
        if (example.body().isEmpty()) {
            return true;
        }
        JsonNode body;
        try {
            body = JSON.readTree(answer.body);
        } catch (IOException notJson) {
            return true; // the assertions below name the problem
        }
        return body != null && DocumentedFields.of(example.body()).keySet().stream().allMatch(body::has);
    }

    /** Names the parts of {@code actual} that {@code documented} marks {@code <NAME>}; checks the literal rest. */
    private void bind(String documented, String actual, String where) {
        Matcher names = PLACEHOLDER.matcher(documented);
        if (!names.find()) {
            return;
        }
        StringBuilder regex = new StringBuilder();
        List<String> order = new java.util.ArrayList<>();
        int at = 0;
        names.reset();
        while (names.find()) {
            regex.append(literal(documented.substring(at, names.start()))).append("(.+?)");
            order.add(names.group(1));
            at = names.end();
        }
        regex.append(literal(documented.substring(at)));
        Matcher m = Pattern.compile(regex.toString()).matcher(actual);
        assertThat(m.matches()).as("'%s' has the documented form '%s' (%s)", actual, documented, where).isTrue();
        for (int i = 0; i < order.size(); i++) {
            String known = variables.putIfAbsent(order.get(i), m.group(i + 1));
            assertThat(known == null ? m.group(i + 1) : known).as("<%s> at %s, named before", order.get(i), where)
                    .isEqualTo(m.group(i + 1));
        }
    }

    /** {@code text} as a regex, its {@code ...} standing for anything. */
    private static String literal(String text) {
        StringBuilder regex = new StringBuilder();
        String[] parts = text.split("\\.\\.\\.", -1);
        for (int i = 0; i < parts.length; i++) {
            regex.append(parts[i].isEmpty() ? "" : Pattern.quote(parts[i]));
            if (i < parts.length - 1) {
                regex.append(".*?");
            }
        }
        return regex.toString();
    }

    private Answer execute(DocExamples.Example example) throws IOException, InterruptedException {
        String script = "set -e\ncurl() { command curl -sS -i \"$@\"; }\n" + example.setup() + example.command();
        ProcessBuilder builder = new ProcessBuilder("bash", "-c", script.replace("localhost:8080", api))
                .directory(workDir.toFile()).redirectErrorStream(false);
        builder.environment().putAll(variables);
        Process process = builder.start();
        byte[] out = process.getInputStream().readAllBytes();
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("exit status of %s: %s", example.command(), err).isZero();
        return Answer.parse(new String(out, StandardCharsets.UTF_8));
    }

    private static Path root() {
        return Path.of(System.getProperty("jobweaver.root", "../..")).toAbsolutePath().normalize();
    }

    /** What curl -i printed: the last status line's code, its headers, and the body. */
    private record Answer(int status, Map<String, String> headers, String body) {

        static Answer parse(String output) {
            String rest = output;
            while (true) {
                int end = rest.indexOf("\r\n\r\n");
                String head = end < 0 ? rest : rest.substring(0, end);
                String body = end < 0 ? "" : rest.substring(end + 4);
                String[] lines = head.split("\r\n");
                int status = Integer.parseInt(lines[0].split(" ")[1]);
                if (status == 100 && end >= 0) {
                    rest = body;
                    continue;
                }
                Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
                for (int i = 1; i < lines.length; i++) {
                    int colon = lines[i].indexOf(':');
                    headers.put(lines[i].substring(0, colon), lines[i].substring(colon + 1).strip());
                }
                return new Answer(status, headers, body);
            }
        }
    }

    /** The top-level fields of a documented JSON body, each with its string value (null when not a string). */
    static final class DocumentedFields {

        private DocumentedFields() {
        }

        static Map<String, String> of(String json) {
            Map<String, String> fields = new TreeMap<>();
            int depth = 0;
            for (int i = 0; i < json.length(); i++) {
                char c = json.charAt(i);
                if (c == '"') {
                    int end = closingQuote(json, i);
                    String text = json.substring(i + 1, end);
                    int after = end + 1;
                    if (depth == 1 && after < json.length() && json.charAt(after) == ':') {
                        String value = null;
                        if (after + 1 < json.length() && json.charAt(after + 1) == '"') {
                            value = json.substring(after + 2, closingQuote(json, after + 1));
                        }
                        fields.put(text, value);
                    }
                    i = end;
                } else if (c == '{' || c == '[') {
                    depth++;
                } else if (c == '}' || c == ']') {
                    depth--;
                }
            }
            return fields;
        }

        private static int closingQuote(String json, int open) {
            int i = open + 1;
            while (json.charAt(i) != '"' || json.charAt(i - 1) == '\\') {
                i++;
            }
            return i;
        }
    }
}
