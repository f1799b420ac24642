package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The bench warms its own client on a stub of its own, and its database readers on ids that exist nowhere. */
class ClientWarmUpTest {

    @Test
    void everyRequestToTheStubIsAcceptedAndEveryReaderIsAsked() {
        List<Collection<UUID>> asked = new ArrayList<>();
        FreshnessProbe.TerminalCheck reader = ids -> {
            asked.add(List.copyOf(ids));
            return Set.of();
        };

        ClientWarmUp.Result result = ClientWarmUp.run(8, List.of(reader));

        assertThat(result.requests()).isEqualTo(ClientWarmUp.REQUESTS);
        assertThat(result.accepted()).as("stub answers that were a 202 with a job id").isEqualTo(ClientWarmUp.REQUESTS);
        assertThat(asked).hasSize(3).allSatisfy(ids -> assertThat(ids).hasSize(500));
        assertThat(result.describe()).contains("3,000 requests", "3,000 accepted", "the platform saw none");
    }
}
