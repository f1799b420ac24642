package dev.jobweaver.api.platform.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The error table of docs/api.md has a row for every {@link ApiErrorCode} with the status it is answered with, and
 * names no code the API does not have.
 */
class ApiErrorCodesDocumentedTest {

    private static final Pattern ROW = Pattern.compile("^\\| (\\d{3}) \\| `API\\.([A-Z_]+)` \\|", Pattern.MULTILINE);

    @Test
    void everyCodeHasARowWithItsStatus() throws IOException {
        Map<String, Set<Integer>> documented = documented();
        for (ApiErrorCode code : ApiErrorCode.values()) {
            assertThat(documented).as("docs/api.md's error table has no row for %s", code.code())
                    .containsKey(code.name());
            assertThat(documented.get(code.name())).as("the status of %s in docs/api.md's error table", code.code())
                    .containsOnly(code.httpStatus());
        }
    }

    @Test
    void everyDocumentedCodeExists() throws IOException {
        List<String> codes = Arrays.stream(ApiErrorCode.values()).map(ApiErrorCode::name).toList();
        assertThat(codes).as("codes of docs/api.md's error table that ApiErrorCode does not have")
                .containsAll(documented().keySet());
    }

    /** Each code of the table with the statuses its rows give. */
    private static Map<String, Set<Integer>> documented() throws IOException {
        String api = ApiDocs.read("docs/api.md");
        String table = api.substring(api.indexOf("\n## Errors"), api.indexOf("\n### ", api.indexOf("\n## Errors")));
        Matcher m = ROW.matcher(table);
        Map<String, Set<Integer>> codes = new java.util.TreeMap<>();
        while (m.find()) {
            codes.computeIfAbsent(m.group(2), c -> new java.util.TreeSet<>()).add(Integer.parseInt(m.group(1)));
        }
        assertThat(codes).as("rows of docs/api.md's error table").isNotEmpty();
        return codes.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }
}
