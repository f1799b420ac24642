package dev.jobweaver.api.hook;

import dev.jobweaver.api.testing.Answers;
import dev.jobweaver.common.job.Priority;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.api.testing.Hooks;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.KafkaProbe;
import dev.jobweaver.common.event.JobCreatedEvent;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code POST /api/hooks/{id}}: a signed call makes exactly one job whose payload's input is the body, through the
 * submission path (its event on {@code job-created}); every forged, stale or malformed call is 401 naming only the
 * header and makes no job; the same signed request repeated makes no second job; unknown and deleted hooks are 404.
 * Each call's body carries a fresh marker, and the jobs table is searched for it: the job is committed before the
 * answer, so a count right after the answer is final.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class HookCallTest {

    private static final String TS = HookSignature.TIMESTAMP_HEADER;
    private static final String SIG = HookSignature.SIGNATURE_HEADER;

    @Inject
    ObjectMapper mapper;

    private static String marked(String marker) {
        return "{\"marker\":\"" + marker + "\",\"ref\":\"refs/heads/main\",\"commits\":[{\"id\":1},{\"id\":2}]}";
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aSignedCallMakesExactlyOneJobWithTheBodyAsItsInput() throws Exception {
        Hooks.Created hook = Hooks.createJobHook("deploy");
        String marker = UUID.randomUUID().toString();
        // spacing and key order as the caller wrote them: the signature is over these bytes, not over their parse
        String body = "{ \"marker\" : \"" + marker + "\", \"ref\":\"refs/heads/main\",\n \"n\": 1.50 }";

        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.JOB_CREATED)) {
            Response response = Hooks.callSigned(hook.id(), hook.secret(), body);

            assertThat(response.statusCode()).as(response.body().asString()).isEqualTo(202);
            String jobId = response.jsonPath().getString("jobId");
            assertThat(response.header("Location")).isEqualTo("/api/jobs/" + jobId);
            assertThat(response.jsonPath().getString("hookId")).isEqualTo(hook.id());
            assertThat(response.jsonPath().getString("traceId")).matches("[0-9a-f]{32}");
            assertThat(Hooks.jobsWithMarker(marker)).isEqualTo(1);

            JsonPath job = Jobs.get(jobId);
            assertThat(job.getString("status")).isIn("PENDING", "RUNNING", "COMPLETED");
            assertThat(job.getString("traceId")).isEqualTo(response.jsonPath().getString("traceId"));
            assertThat(job.getInt("maxRetries")).as("the template's").isEqualTo(1);
            assertThat(job.getMap("payload.input")).isEqualTo(Map.of("marker", marker, "ref", "refs/heads/main",
                    "n", 1.5f));
            assertThat(job.getList("payload.steps.message")).containsExactly("hooked");

            JobCreatedEvent event = probe.first(jobId, mapper, JobCreatedEvent.class);
            assertThat(event.payload().get("input").get("marker").asText()).isEqualTo(marker);
            assertThat(event.payload().get("steps").get(0).get("message").asText()).isEqualTo("hooked");
        }
    }

    @Test
    void anyJsonValueIsAnInput() throws Exception {
        Hooks.Created hook = Hooks.createJobHook("arrays");
        String marker = UUID.randomUUID().toString();

        Response response = Hooks.callSigned(hook.id(), hook.secret(), "[1,\"" + marker + "\"]");

        assertThat(response.statusCode()).as(response.body().asString()).isEqualTo(202);
        assertThat(Jobs.get(response.jsonPath().getString("jobId")).getList("payload.input"))
                .containsExactly(1, marker);
    }

    @Test
    void aHooksJobWithoutAPriorityIsHighAndOneWithItsOwnKeepsIt() throws Exception {
        Hooks.Created urgent = Hooks.createJobHook("urgent");
        JsonPath own = Answers.expect(Hooks.create("{\"name\":\"own\",\"job\":"
                + Hooks.JOB.replace("\"maxRetryCount\":1", "\"maxRetryCount\":1,\"priority\":\"LOW\"") + "}"), 201, "");

        try (KafkaProbe probe = KafkaProbe.atEndOf(Topics.JOB_CREATED)) {
            String high = Hooks.callSigned(urgent.id(), urgent.secret(), marked(UUID.randomUUID().toString()))
                    .jsonPath().getString("jobId");
            String low = Hooks.callSigned(own.getString("id"), own.getString("secret"),
                    marked(UUID.randomUUID().toString())).jsonPath().getString("jobId");

            assertThat(Jobs.get(high).getString("priority")).as("the hooks' default").isEqualTo("HIGH");
            assertThat(probe.first(high, mapper, JobCreatedEvent.class).control().priority())
                    .isEqualTo(Priority.HIGH);
            assertThat(Jobs.get(low).getString("priority")).as("the template's own").isEqualTo("LOW");
        }
    }

    /** One forgery: what it sends, built from the target hook, another hook and the body with its marker. */
    private record Forgery(String expected, Function<Context, Sent> build) {
    }

    private record Context(Hooks.Created hook, Hooks.Created other, String body, String marker) {
    }

    private record Sent(byte[] body, Map<String, String> headers) {
    }

    private static Map<String, String> headers(String timestamp, String signature) {
        Map<String, String> headers = new HashMap<>();
        headers.put(TS, timestamp);
        headers.put(SIG, signature);
        return headers;
    }

    private static Sent signedAt(Context c, long epochSecond) {
        String timestamp = Long.toString(epochSecond);
        return new Sent(bytes(c.body()), headers(timestamp, HookSignature.sign(c.hook().secret(), timestamp,
                bytes(c.body()))));
    }

    static Stream<Arguments> forgeries() {
        List<Arguments> all = new ArrayList<>();
        all.add(Arguments.of("wrong secret", new Forgery("signature", c -> {
            String ts = Hooks.now();
            return new Sent(bytes(c.body()), headers(ts, HookSignature.sign(HookSignature.newSecret(), ts,
                    bytes(c.body()))));
        })));
        all.add(Arguments.of("body changed by one byte", new Forgery("signature", c -> {
            String ts = Hooks.now();
            String signature = HookSignature.sign(c.hook().secret(), ts, bytes(c.body()));
            byte[] changed = bytes(c.body());
            changed[changed.length - 4] ^= 1; // the last commit id, 2 -> 3: still JSON, still marked
            return new Sent(changed, headers(ts, signature));
        })));
        all.add(Arguments.of("timestamp changed after signing", new Forgery("signature", c -> {
            long now = Instant.now().getEpochSecond();
            String signature = HookSignature.sign(c.hook().secret(), Long.toString(now), bytes(c.body()));
            return new Sent(bytes(c.body()), headers(Long.toString(now - 1), signature));
        })));
        all.add(Arguments.of("signature of another hook", new Forgery("signature", c -> {
            String ts = Hooks.now();
            return new Sent(bytes(c.body()), headers(ts, HookSignature.sign(c.other().secret(), ts, bytes(c.body()))));
        })));
        all.add(Arguments.of("upper-case hex", new Forgery("signature", c -> {
            String ts = Hooks.now();
            String signature = HookSignature.sign(c.hook().secret(), ts, bytes(c.body()));
            return new Sent(bytes(c.body()), headers(ts, "sha256=" + signature.substring(7).toUpperCase()));
        })));
        all.add(Arguments.of("missing sha256= prefix", new Forgery("signature", c -> {
            String ts = Hooks.now();
            return new Sent(bytes(c.body()), headers(ts, HookSignature.sign(c.hook().secret(), ts, bytes(c.body()))
                    .substring(7)));
        })));
        all.add(Arguments.of("another algorithm's prefix", new Forgery("signature", c -> {
            String ts = Hooks.now();
            return new Sent(bytes(c.body()), headers(ts, "sha512=" + HookSignature.sign(c.hook().secret(), ts,
                    bytes(c.body())).substring(7)));
        })));
        all.add(Arguments.of("truncated signature", new Forgery("signature", c -> {
            String ts = Hooks.now();
            String signature = HookSignature.sign(c.hook().secret(), ts, bytes(c.body()));
            return new Sent(bytes(c.body()), headers(ts, signature.substring(0, signature.length() - 2)));
        })));
        all.add(Arguments.of("empty signature", new Forgery("signature", c ->
                new Sent(bytes(c.body()), headers(Hooks.now(), "")))));
        all.add(Arguments.of("signature header missing", new Forgery("signature", c ->
                new Sent(bytes(c.body()), headers(Hooks.now(), null)))));
        all.add(Arguments.of("timestamp header missing", new Forgery("timestamp", c -> {
            String signature = HookSignature.sign(c.hook().secret(), Hooks.now(), bytes(c.body()));
            return new Sent(bytes(c.body()), headers(null, signature));
        })));
        all.add(Arguments.of("both headers missing", new Forgery("timestamp", c ->
                new Sent(bytes(c.body()), headers(null, null)))));
        all.add(Arguments.of("signed 6 minutes ago", new Forgery("timestamp", c ->
                signedAt(c, Instant.now().minusSeconds(360).getEpochSecond()))));
        all.add(Arguments.of("signed 6 minutes in the future", new Forgery("timestamp", c ->
                signedAt(c, Instant.now().plusSeconds(360).getEpochSecond()))));
        all.add(Arguments.of("timestamp in milliseconds", new Forgery("timestamp", c ->
                signedAt(c, Instant.now().toEpochMilli()))));
        all.add(Arguments.of("non-numeric timestamp", new Forgery("timestamp", c -> {
            String ts = Instant.now().toString();
            return new Sent(bytes(c.body()), headers(ts, HookSignature.sign(c.hook().secret(), ts, bytes(c.body()))));
        })));
        all.add(Arguments.of("signature replayed with another body", new Forgery("signature", c -> {
            String ts = Hooks.now();
            String signature = HookSignature.sign(c.hook().secret(), ts, bytes(marked(UUID.randomUUID().toString())));
            return new Sent(bytes(c.body()), headers(ts, signature));
        })));
        all.add(Arguments.of("signed without the body", new Forgery("signature", c -> {
            String ts = Hooks.now();
            return new Sent(bytes(c.body()), headers(ts, HookSignature.sign(c.hook().secret(), ts, new byte[0])));
        })));
        return all.stream();
    }

    private static Hooks.Created target;
    private static Hooks.Created other;

    @ParameterizedTest(name = "{0}")
    @MethodSource("forgeries")
    void aForgedCallIs401NamingOnlyTheHeaderAndMakesNoJob(String name, Forgery forgery) throws Exception {
        if (target == null) {
            target = Hooks.createJobHook("target");
            other = Hooks.createJobHook("other");
        }
        String marker = UUID.randomUUID().toString();
        Sent sent = forgery.build().apply(new Context(target, other, marked(marker), marker));

        Response response = Hooks.call(target.id(), sent.body(), sent.headers());

        assertThat(response.statusCode()).as(response.body().asString()).isEqualTo(401);
        assertThat(response.jsonPath().getString("errorCode")).isEqualTo("API.HOOK_SIGNATURE_REJECTED");
        String message = response.jsonPath().getString("message");
        assertThat(message).contains(forgery.expected() + " refused")
                .doesNotContain(forgery.expected().equals("signature") ? "timestamp" : "signature")
                .doesNotContain(target.secret());
        assertThat(response.header("WWW-Authenticate")).startsWith("JobWeaver-Signature");
        assertThat(Hooks.jobsWithMarker(marker)).as("no job made").isZero();
    }

    @Test
    void theSameSignedRequestRepeatedMakesOneJobAndIsAnsweredWithIt() throws Exception {
        Hooks.Created hook = Hooks.createJobHook("replayed");
        String marker = UUID.randomUUID().toString();
        byte[] body = bytes(marked(marker));
        String ts = Hooks.now();
        Map<String, String> signed = headers(ts, HookSignature.sign(hook.secret(), ts, body));

        Response first = Hooks.call(hook.id(), body, signed);
        Response again = Hooks.call(hook.id(), body, signed);
        List<Response> concurrent = Stream.of(1, 2, 3, 4)
                .map(i -> CompletableFuture.supplyAsync(() -> Hooks.call(hook.id(), body, signed)))
                .toList().stream().map(CompletableFuture::join).toList();

        assertThat(first.statusCode()).as(first.body().asString()).isEqualTo(202);
        String jobId = first.jsonPath().getString("jobId");
        assertThat(again.statusCode()).isEqualTo(202);
        assertThat(again.jsonPath().getString("jobId")).isEqualTo(jobId);
        assertThat(again.jsonPath().getString("traceId")).isEqualTo(first.jsonPath().getString("traceId"));
        assertThat(concurrent).allSatisfy(r -> {
            assertThat(r.statusCode()).isEqualTo(202);
            assertThat(r.jsonPath().getString("jobId")).isEqualTo(jobId);
        });
        assertThat(Hooks.jobsWithMarker(marker)).isEqualTo(1);

        // the same body signed anew (another second) is another request, and makes another job
        String nextSecond = Long.toString(Long.parseLong(ts) + 1);
        Response resigned = Hooks.call(hook.id(), body,
                headers(nextSecond, HookSignature.sign(hook.secret(), nextSecond, body)));
        assertThat(resigned.statusCode()).isEqualTo(202);
        assertThat(resigned.jsonPath().getString("jobId")).isNotEqualTo(jobId);
        assertThat(Hooks.jobsWithMarker(marker)).isEqualTo(2);
    }

    @Test
    void anUnknownHookIs404AndMakesNoJob() throws Exception {
        String marker = UUID.randomUUID().toString();

        Response response = Hooks.callSigned(UUID.randomUUID().toString(), HookSignature.newSecret(), marked(marker));

        assertThat(response.statusCode()).as(response.body().asString()).isEqualTo(404);
        assertThat(response.jsonPath().getString("errorCode")).isEqualTo("API.HOOK_NOT_FOUND");
        assertThat(Hooks.jobsWithMarker(marker)).isZero();
    }

    @Test
    void aDeletedHookRefusesItsOldSignatures() throws Exception {
        Hooks.Created hook = Hooks.createJobHook("deleted");
        String before = UUID.randomUUID().toString();
        assertThat(Hooks.callSigned(hook.id(), hook.secret(), marked(before)).statusCode()).isEqualTo(202);

        given().delete("/api/hooks/" + hook.id()).then().statusCode(204);
        String after = UUID.randomUUID().toString();
        Response response = Hooks.callSigned(hook.id(), hook.secret(), marked(after));

        assertThat(response.statusCode()).as(response.body().asString()).isEqualTo(404);
        assertThat(response.jsonPath().getString("errorCode")).isEqualTo("API.HOOK_NOT_FOUND");
        assertThat(Hooks.jobsWithMarker(before)).isEqualTo(1);
        assertThat(Hooks.jobsWithMarker(after)).isZero();
    }

    @Test
    void aSignedBodyThatIsNotStorableJsonIs400AndMakesNoJob() throws Exception {
        Hooks.Created hook = Hooks.createJobHook("not json");
        String marker = UUID.randomUUID().toString();

        for (String body : List.of("marker=" + marker, "{\"marker\":\"" + marker + "\"", "{\"marker\":\"" + marker
                + "\"} trailing", "{\"marker\":\"" + marker + "\",\"marker\":\"x\"}", "",
                "{\"marker\":\"" + marker + "\",\"nul\":\"a\\u0000b\"}",
                "{\"marker\":\"" + marker + "\",\"n\":1e999}")) {
            Response response = Hooks.callSigned(hook.id(), hook.secret(), body);

            assertThat(response.statusCode()).as(body + ": " + response.body().asString()).isEqualTo(400);
            assertThat(response.jsonPath().getString("errorCode")).isEqualTo("API.MALFORMED_JSON");
        }
        assertThat(Hooks.jobsWithMarker(marker)).isZero();
    }

    @Test
    void aBodyOverTheLimitIs413() {
        Hooks.Created hook = Hooks.createJobHook("large");

        Response response = Hooks.callSigned(hook.id(), hook.secret(), "{\"pad\":\"" + "x".repeat(70_000) + "\"}");

        assertThat(response.statusCode()).isEqualTo(413);
        assertThat(response.jsonPath().getString("errorCode")).isEqualTo("API.PAYLOAD_TOO_LARGE");
    }
}
