package dev.jobweaver.api.testing;

import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.response.Response;
import java.sql.SQLException;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Stream;

/** Tenant names for the tests of the endpoints under {@code /api/tenants/{tenant}}. */
public final class Tenants {

    /** What every endpoint under {@code /api/tenants/{tenant}} says of a tenant that is not a tenant name. */
    public static final String BAD_TENANT_MESSAGE = "path parameter tenant must match [a-z0-9][a-z0-9-]{0,62}";

    private Tenants() {
    }

    /** A tenant no other test uses, {@code prefix} and a random part. */
    public static String fresh(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Names that are no tenant's: capitals, a leading dash, other characters, a space, one character too many. */
    public static Stream<String> invalid() {
        return Stream.of("Acme", "-acme", "ac_me", "acme_1", "a.b", "Not_A_Tenant", "Bad Tenant", "acme%20corp",
                "a".repeat(64));
    }

    /**
     * Asserts that {@code call}, given a fresh tenant, is a 400 with {@code errorCode} and {@code messagePart}
     * ({@link Answers#assertRefused}) and that {@code table} then holds no row of that tenant.
     */
    public static void assertRefusedStoringNothing(String table, Function<String, Response> call, String rule,
                                                   String errorCode, String messagePart) throws SQLException {
        String tenant = fresh("refused");
        Answers.assertRefused(rule, call.apply(tenant), 400, errorCode, messagePart);
        assertThat(Database.firstLong("SELECT count(*) FROM " + table + " WHERE tenant = ?", tenant)).as(rule)
                .isZero();
    }
}
