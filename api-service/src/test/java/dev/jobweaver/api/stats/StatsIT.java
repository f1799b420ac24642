package dev.jobweaver.api.stats;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.Answers;
import dev.jobweaver.api.testing.NativeExecutable;
import dev.jobweaver.api.testing.NativeProfile;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The statistics overview in the native executable. */
@ExtendWith(NativeProfile.AsAdmin.class)
class StatsIT extends NativeExecutable {

    @Test
    void theOverviewCountsAndSeries() {
        JsonPath overview = Answers.expect(given().get("/api/stats/overview"), 200, "the overview");

        assertThat(overview.getInt("minutes")).isEqualTo(60);
        assertThat(overview.getList("series")).isNotNull();
    }
}
