package dev.jobweaver.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Ports for servers that restart on their port lie below the ephemeral range, where no outgoing connection goes. */
class PortsTest {

    @Test
    void aStablePortIsFreeAndBelowTheEphemeralRange() throws Exception {
        int low = Ports.ephemeralLow();
        Set<Integer> drawn = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            int port = Ports.stable();
            assertThat(port).isBetween(Ports.STABLE_LOW, low - 1);
            drawn.add(port);
            try (ServerSocket server = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
                assertThat(server.getLocalPort()).isEqualTo(port);
            }
        }
        assertThat(drawn).as("drawn at random, so parallel runs rarely meet").hasSizeGreaterThan(10);
    }

    @Test
    void theEphemeralRangeIsReadFromTheKernel() {
        assertThat(Ports.ephemeralLow()).isBetween(1024, 65_535);
    }
}
