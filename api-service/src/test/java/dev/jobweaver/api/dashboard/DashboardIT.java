package dev.jobweaver.api.dashboard;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.Answers;
import dev.jobweaver.api.testing.NativeExecutable;
import dev.jobweaver.api.testing.NativeProfile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The dashboard in the native executable: its redirect, its page and scripts (static resources), its settings. */
@ExtendWith(NativeProfile.AsAdmin.class)
class DashboardIT extends NativeExecutable {

    @Test
    void thePageItsScriptsAndItsSettingsAreServed() {
        given().redirects().follow(false).get("/dashboard").then().statusCode(302)
                .header("Location", "/dashboard/");
        assertThat(given().get("/dashboard/").then().statusCode(200).extract().asString()).contains("<html");
        assertThat(given().get("/dashboard/js/app.js").then().statusCode(200).extract().asString()).isNotBlank();
        assertThat(given().get("/dashboard/dashboard.css").then().statusCode(200).extract().asString()).isNotBlank();

        assertThat(Answers.expect(given().get("/api/dashboard/config"), 200, "the settings").getLong("pollIntervalMs"))
                .isEqualTo(3000);
    }
}
