package dev.jobweaver.api.testing;

import static io.restassured.RestAssured.given;

import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The query parameters every paged list of the API reads alike, and so refuses alike: a 400
 * {@code API.INVALID_PARAMETER} naming the parameter. Each case is (name, value, what the message says).
 */
public final class ListParameters {

    private ListParameters() {
    }

    /** A bad page or size. */
    public static Stream<Arguments> badPaging() {
        return Stream.of(
                Arguments.of("page", "-1", "query parameter page must be an integer"),
                Arguments.of("page", "x", "query parameter page must be an integer"),
                Arguments.of("size", "0", "query parameter size must be an integer between 1 and 100, got '0'"),
                Arguments.of("size", "101", "query parameter size must be an integer between 1 and 100"),
                Arguments.of("size", "ten", "query parameter size must be an integer between 1 and 100"));
    }

    /** {@link #badPaging}, and a tenant filter that names no tenant ({@link Tenants#invalid}). */
    public static Stream<Arguments> badPagingOrTenant() {
        return Stream.concat(badPaging(), Tenants.invalid()
                .map(tenant -> Arguments.of("tenant", tenant, "query parameter tenant must match")));
    }

    /** Asserts that GET {@code path} with {@code name}={@code value} is refused so, naming {@code messagePart}. */
    public static void assertRefused(String path, String name, String value, String messagePart) {
        Answers.assertRefused(name + "=" + value, given().queryParam(name, value).get(path), 400,
                "API.INVALID_PARAMETER", messagePart);
    }
}
