package dev.jobweaver.api.testing;

import static io.restassured.RestAssured.given;

import io.restassured.response.Response;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * The calls of a resource that take one path parameter, each named, for the checks that every one of them refuses a
 * bad or unknown value alike. A path names the parameter {@code {id}}.
 */
public final class Endpoints {

    private final Map<String, Function<String, Response>> calls = new LinkedHashMap<>();

    /** Adds {@code call}, given the parameter's value, as {@code name}. */
    public Endpoints with(String name, Function<String, Response> call) {
        calls.put(name, call);
        return this;
    }

    /** Adds GET {@code path}. */
    public Endpoints get(String path) {
        return with("GET " + path, value -> given().get(at(path, value)));
    }

    /** Adds DELETE {@code path}. */
    public Endpoints delete(String path) {
        return with("DELETE " + path, value -> given().delete(at(path, value)));
    }

    /** Adds POST {@code path} without a body. */
    public Endpoints post(String path) {
        return with("POST " + path, value -> given().post(at(path, value)));
    }

    /** Adds POST {@code path} with {@code body} as JSON. */
    public Endpoints postJson(String path, String body) {
        return with("POST " + path, value -> Answers.postJson(at(path, value), body));
    }

    /** Adds PUT {@code path} with {@code body} as JSON. */
    public Endpoints putJson(String path, String body) {
        return with("PUT " + path, value -> Answers.putJson(at(path, value), body));
    }

    /**
     * Asserts that every call with {@code value} is refused with {@code status} and {@code errorCode}, its message
     * holding {@code messagePart} ({@link Answers#assertRefused}).
     */
    public void refuse(String value, int status, String errorCode, String messagePart) {
        calls.forEach((name, call) -> Answers.assertRefused(name + " with " + value, call.apply(value), status,
                errorCode, messagePart));
    }

    private static String at(String path, String value) {
        return path.replace("{id}", value);
    }
}
