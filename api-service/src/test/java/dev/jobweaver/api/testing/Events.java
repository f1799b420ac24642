package dev.jobweaver.api.testing;

import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.sql.SQLException;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;

/** Application events and the workflows that listen to them, as the event tests share them. */
public final class Events {

    private Events() {
    }

    /** A fresh event type, so that no other test's workflow listens to it. */
    public static String freshType(String name) {
        return name + ".t" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** POST /api/events with {@code body} as JSON. */
    public static Response publish(String body) {
        return Answers.postJson("/api/events", body);
    }

    /** The body of event {@code id} (no id when null) of {@code type} in {@code tenant} (none when null). */
    public static String body(String id, String type, String dataJson, String tenant) {
        return "{" + (id == null ? "" : "\"id\":\"" + id + "\",") + "\"type\":\"" + type + "\""
                + (dataJson == null ? "" : ",\"data\":" + dataJson)
                + (tenant == null ? "" : ",\"tenant\":\"" + tenant + "\"") + "}";
    }

    /** A one-node workflow of {@code tenant} listening to {@code types}; its id. */
    public static String listening(String tenant, String... types) {
        String triggers = List.of(types).stream().map(t -> "{\"event\":\"" + t + "\"}")
                .collect(Collectors.joining(","));
        JsonPath created = Workflows.createOne("{\"name\":\"on-event\",\"tenant\":\"" + tenant + "\",\"triggers\":["
                + triggers + "],\"nodes\":[{\"id\":\"extract\",\"job\":" + Workflows.JOB + "}]}");
        return created.getString("id");
    }

    /** How many runs of {@code workflowId} the database holds. */
    public static long runsOf(String workflowId) throws SQLException {
        return Database.firstLong("SELECT count(*) FROM workflow_runs WHERE workflow_id = ?::uuid", workflowId);
    }
}
