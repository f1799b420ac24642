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
