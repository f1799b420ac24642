package dev.jobweaver.api.testing;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.jobweaver.testing.WebhookReceiver;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * A test of webhook deliveries: every test method has a {@link WebhookReceiver} of its own, closed after it, and the
 * mapper that writes the events it sends.
 */
public abstract class DeliveryTestSupport {

    @Inject
    protected ObjectMapper mapper;

    protected WebhookReceiver receiver;

    @BeforeEach
    void startReceiver() throws Exception {
        receiver = WebhookReceiver.start();
    }

    @AfterEach
    void stopReceiver() {
        receiver.close();
    }
}
