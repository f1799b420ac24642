package dev.jobweaver.api.notification;

import dev.jobweaver.testing.WebhookReceiver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A delivery test whose every test method has a {@link WebhookReceiver} of its own, closed after it. */
abstract class ReceiverTest {

    WebhookReceiver receiver;

    @BeforeEach
    void startReceiver() throws Exception {
        receiver = WebhookReceiver.start();
    }

    @AfterEach
    void stopReceiver() {
        receiver.close();
    }
}
