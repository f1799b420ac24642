package dev.jobweaver.local;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/** Finding free loopback ports, and refusing clearly when a fixed one is taken. */
public final class Ports {

    private Ports() {
    }

    /** A port that was free a moment ago; tests use these so parallel runs never collide. */
    public static int free() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free loopback port", e);
        }
    }

    /**
     * A free port below the machine's ephemeral range, for a server that is stopped and started again on the same port
     * (a broker in an outage test, a database a chaos run kills). A port from {@link #free()} lies inside that range,
     * where any outgoing connection may take it as its local port while the server is down: a restarted broker then
     * failed to bind its controller port. Falls back to {@link #free()} when no such port is found.
     */
    public static int stable() {
        int below = ephemeralLow();
        java.util.concurrent.ThreadLocalRandom random = java.util.concurrent.ThreadLocalRandom.current();
        for (int i = 0; i < 100 && below > STABLE_LOW + 1; i++) {
            int port = random.nextInt(STABLE_LOW, below);
            if (!inUse(port)) {
                return port;
            }
        }
        return free();
    }

    /** The lowest port of the range stable ports are drawn from (below it: well-known and registered services'). */
    static final int STABLE_LOW = 20_000;

    /** The first port of the ephemeral range ({@code /proc/sys/net/ipv4/ip_local_port_range}), Linux's 32768 if unread. */
    static int ephemeralLow() {
        // a reader, not Files.readString: procfs reports a size of 0, and a read sized by it came back cut short
        try (java.io.BufferedReader reader = java.nio.file.Files.newBufferedReader(
                java.nio.file.Path.of("/proc/sys/net/ipv4/ip_local_port_range"))) {
            String range = reader.readLine();
            return Integer.parseInt(range.strip().split("\\s+")[0]);
        } catch (IOException | RuntimeException e) {
            return 32_768;
        }
    }

    /** Whether something already listens on {@code port} (on any address). */
    public static boolean inUse(int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(new InetSocketAddress(port));
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    /**
     * Fails with a message naming {@code what} and the port when the port is taken, so that
     * `./jobweaver up` never starts half a platform against somebody else's server.
     */
    public static void requireFree(int port, String what, String option) {
        if (inUse(port)) {
            throw new IllegalStateException("port " + port + " (" + what + ") is already in use: stop what listens there"
                    + " or choose another port with " + option);
        }
    }
}
