package dev.jobweaver.api.event;

import dev.jobweaver.api.testing.Answers;
import dev.jobweaver.api.testing.Database;
import dev.jobweaver.api.testing.Events;
import dev.jobweaver.api.testing.Workflows;
import dev.jobweaver.testing.JobWeaverTest;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Bad events and bad triggers are refused naming the field, and store nothing: a 400 for a rule broken, a 413 for a
 * body over the limit or an event larger than a run's input.
 */
@QuarkusTest
@JobWeaverTest(database = "jobweaver_api")
class EventRequestTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            no type          | {"id":"e-1","data":{}}                           | API.INVALID_EVENT_REQUEST | type is required
            type malformed   | {"type":"9 lives"}                               | API.INVALID_EVENT_REQUEST | type must be an event type
            type too long    | {"type":"a%s"}                                   | API.INVALID_EVENT_REQUEST | type must be an event type
            type a number    | {"type":7}                                       | API.MALFORMED_JSON        | type must be a string
            id empty         | {"id":"","type":"order.created"}                 | API.INVALID_EVENT_REQUEST | id must be 1 to 200 printable ASCII characters
            id with a space  | {"id":"order 1","type":"order.created"}          | API.INVALID_EVENT_REQUEST | id must be 1 to 200 printable ASCII characters
            id too long      | {"id":"i%s","type":"order.created"}              | API.INVALID_EVENT_REQUEST | id must be 1 to 200 printable ASCII characters
            tenant malformed | {"type":"order.created","tenant":"Acme"}         | API.INVALID_EVENT_REQUEST | tenant must match
            data with NUL    | {"type":"order.created","data":{"a":"x\\u0000"}} | API.INVALID_EVENT_REQUEST | data must not contain the NUL character
            not an object    | []                                               | API.MALFORMED_JSON        | request body must be a JSON object
            """)
    void aBadEventIsRefusedNamingTheFieldAndStoresNothing(String rule, String template, String code, String message)
            throws Exception {
        String body = template.formatted("x".repeat(200));
        Answers.assertRefusedChangingNothing(rule, () -> Database.count("application_events"),
                () -> Events.publish(body), 400, code, message);
    }

    @Test
    void aBodyOverTheLimitOrAnEventLargerThanARunsInputIs413() throws Exception {
        Answers.assertBodyOverTheLimitAndNotJsonRefused("/api/events", Events.body(null, "order.created", null, null));
        // within the body's 64 KiB, beyond a run's input (16 KiB by default)
        String data = "{\"blob\":\"" + "b".repeat(20_000) + "\"}";
        Answers.assertRefusedChangingNothing("large data", () -> Database.count("application_events"),
                () -> Events.publish(Events.body(null, "order.created", data, null)), 413, "API.PAYLOAD_TOO_LARGE",
                "data: the event is its runs' input");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            trigger malformed | [{"event":"9 lives"}]                     | triggers[0].event must be an event type
            trigger no event  | [{}]                                      | triggers[0].event is required
            trigger null      | [null]                                    | triggers[0] must be an object
            trigger twice     | [{"event":"a.b"},{"event":"a.b"}]         | triggers[1].event 'a.b' is given twice
            """)
    void aBadTriggerIsRefusedNamingIt(String rule, String triggers, String message) throws Exception {
        String body = "{\"name\":\"bad\",\"triggers\":" + triggers + ",\"nodes\":[{\"id\":\"extract\",\"job\":"
                + Workflows.JOB + "}]}";
        Answers.assertRefusedChangingNothing(rule, () -> Database.count("workflows"), () -> Workflows.create(body),
                400, "API.INVALID_WORKFLOW_REQUEST", message);
    }

    @Test
    void triggersThatAreNoArrayAreMalformed() {
        Answers.assertRefused("not an array", Workflows.create("{\"name\":\"bad\",\"triggers\":\"a.b\",\"nodes\":["
                + "{\"id\":\"extract\",\"job\":" + Workflows.JOB + "}]}"), 400, "API.MALFORMED_JSON", "triggers");
    }
}
