package dev.jobweaver.common.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import org.junit.jupiter.api.Test;

/** A job type is a name: any well-formed one is a type, written to JSON as its string. */
class JobTypeTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aWellFormedNameIsAType() {
        assertThat(JobType.of("image.resize").name()).isEqualTo("image.resize");
        assertThat(JobType.of("R").builtIn()).isFalse();
        assertThat(JobType.of("a" + "b".repeat(99)).name()).hasSize(100);
        assertThat(JobType.of("Report_v2-nightly").toString()).isEqualTo("Report_v2-nightly");
        assertThat(JobType.of("image.resize")).isEqualTo(new JobType("image.resize"));
    }

    @Test
    void theBuiltInTypesAreTheirConstants() {
        assertThat(JobType.of("SIMULATION")).isSameAs(JobType.SIMULATION);
        assertThat(JobType.of("HTTP")).isSameAs(JobType.HTTP);
        assertThat(JobType.SIMULATION.builtIn()).isTrue();
        assertThat(JobType.HTTP.builtIn()).isTrue();
        assertThat(JobType.of("http").builtIn()).as("names are case-sensitive").isFalse();
    }

    @Test
    void aMalformedNameIsRefusedNamingTheRule() {
        for (String bad : new String[] {"", "1abc", "-x", "has space", "ümlaut", "a/b", "a" + "b".repeat(100)}) {
            assertThat(JobType.isValid(bad)).as(bad).isFalse();
            assertThatThrownBy(() -> JobType.of(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining(JobType.PATTERN);
        }
        assertThatThrownBy(() -> JobType.of(null)).hasMessage("a job type is required");
        assertThat(JobType.problem("x".repeat(50))).endsWith("got '" + "x".repeat(40) + "...'");
    }

    @Test
    void itTravelsAsItsName() throws Exception {
        assertThat(JSON.writeValueAsString(JobType.of("image.resize"))).isEqualTo("\"image.resize\"");
        assertThat(JSON.readValue("\"image.resize\"", JobType.class)).isEqualTo(JobType.of("image.resize"));
        assertThat(JSON.readValue("\"HTTP\"", JobType.class)).isSameAs(JobType.HTTP);
        assertThatThrownBy(() -> JSON.readValue("\"no spaces\"", JobType.class))
                .isInstanceOf(ValueInstantiationException.class).hasMessageContaining("got 'no spaces'");
    }
}
