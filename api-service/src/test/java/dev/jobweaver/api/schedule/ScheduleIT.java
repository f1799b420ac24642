package dev.jobweaver.api.schedule;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.api.testing.Answers;
import dev.jobweaver.api.testing.Jobs;
import dev.jobweaver.api.testing.NativeExecutable;
import dev.jobweaver.api.testing.NativeProfile;
import dev.jobweaver.api.testing.Schedules;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Schedules in the native executable: create (cron parsed, next run computed), read, list, delete. */
@ExtendWith(NativeProfile.AsAdmin.class)
class ScheduleIT extends NativeExecutable {

    @Test
    void aScheduleIsCreatedReadListedAndDeleted() {
        JsonPath created = Schedules.createOne("""
                {"name":"nightly","cron":"0 2 * * *","timezone":"Europe/Amsterdam","job":%s}""".formatted(Jobs.VALID));
        String id = created.getString("id");
        assertThat(created.getString("nextRunAt")).isNotBlank();
        assertThat(created.getString("timezone")).isEqualTo("Europe/Amsterdam");

        JsonPath read = Answers.expect(given().get("/api/schedules/" + id), 200, "the schedule");
        assertThat(read.getString("cron")).isEqualTo("0 2 * * *");
        assertThat(read.getString("nextRunAt")).isEqualTo(created.getString("nextRunAt"));
        assertThat(Answers.expect(given().get("/api/schedules"), 200, "the list").getList("schedules.id",
                String.class)).contains(id);

        given().delete("/api/schedules/" + id).then().statusCode(204);
        given().get("/api/schedules/" + id).then().statusCode(404);
    }
}
