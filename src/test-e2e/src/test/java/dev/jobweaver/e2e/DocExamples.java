package dev.jobweaver.e2e;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The runnable examples of a Markdown page, as docs/conventions.md ("Docs") defines them: every {@code curl} command in
 * a {@code ```bash} block, with the page's shell lines above it, and the {@code #} lines right after it, which
 * document its answer: {@code # HTTP/1.1 <status>} (required), {@code # Header: value} lines and the JSON body. A
 * value written {@code <NAME>} in the answer names what a later example uses as {@code $NAME}.
 */
record DocExamples(List<Example> examples) {

    private static final Pattern STATUS = Pattern.compile("^HTTP/[\\d.]+ (\\d{3})\\b.*");
    private static final Pattern HEADER = Pattern.compile("^([A-Za-z][A-Za-z-]*): (.*)$");

    /**
     * One command with what its answer must show.
     *
     * @param line the command's first line in the page (1-based)
     * @param setup the shell lines of the page's bash blocks above it (variables it uses)
     * @param headers headers the answer must carry; a value may hold {@code <NAME>} and {@code ...}
     * @param body the documented JSON body, or empty
     */
    record Example(int line, String setup, String command, int status, Map<String, String> headers, String body) {
    }

    /** The examples of {@code markdown}; an example without a documented status fails here, naming its line. */
    static DocExamples of(String markdown) {
        List<String> lines = markdown.lines().toList();
        List<Example> examples = new ArrayList<>();
        boolean inBash = false;
        StringBuilder setup = new StringBuilder();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.startsWith("```")) {
                inBash = !inBash && line.equals("```bash");
                continue;
            }
            if (!inBash || line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int first = i;
            StringBuilder command = new StringBuilder(line);
            while (incomplete(command.toString())) {
                command.append('\n').append(lines.get(++i));
            }
            if (!line.startsWith("curl ")) {
                setup.append(command).append('\n');
                continue;
            }
            int status = -1;
            Map<String, String> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            StringBuilder body = new StringBuilder();
            while (i + 1 < lines.size() && lines.get(i + 1).startsWith("# ")) {
                String answer = lines.get(++i).substring(2);
                Matcher s = STATUS.matcher(answer);
                Matcher h = HEADER.matcher(answer);
                if (s.matches()) {
                    status = Integer.parseInt(s.group(1));
                } else if (body.isEmpty() && h.matches()) {
                    headers.put(h.group(1), h.group(2).strip());
                } else {
                    body.append(answer.strip());
                }
            }
            if (status < 0) {
                throw new IllegalArgumentException("the example at line " + (first + 1)
                        + " documents no status: a '# HTTP/1.1 <status>' line must follow it");
            }
            examples.add(new Example(first + 1, setup.toString(), withoutComment(command.toString()), status,
                    headers, body.toString()));
        }
        return new DocExamples(List.copyOf(examples));
    }

    /** Lines of {@code markdown} outside {@code ```bash} blocks that run curl: examples no test would run. */
    static List<String> curlOutsideExamples(String markdown) {
        List<String> found = new ArrayList<>();
        boolean inBash = false;
        boolean inBlock = false;
        for (String line : markdown.lines().toList()) {
            if (line.startsWith("```")) {
                inBlock = !inBlock;
                inBash = inBlock && line.equals("```bash");
            } else if (inBlock && !inBash && line.matches("^\\$? ?curl .*")) {
                found.add(line);
            }
        }
        return found;
    }

    /** Whether a shell command goes on on the next line: a trailing backslash, or a quote still open. */
    private static boolean incomplete(String command) {
        return command.endsWith("\\") || outsideQuotes(command, command.length()) != 0;
    }

    /** The command without a trailing {@code # comment} outside quotes. */
    private static String withoutComment(String command) {
        for (int i = 0; i < command.length(); i++) {
            if (command.charAt(i) == '#' && i > 0 && Character.isWhitespace(command.charAt(i - 1))
                    && outsideQuotes(command, i) == 0) {
                return command.substring(0, i).strip();
            }
        }
        return command.strip();
    }

    /** The quote open at {@code end} ({@code '} or {@code "}), or 0. */
    private static char outsideQuotes(String text, int end) {
        char open = 0;
        for (int i = 0; i < end; i++) {
            char c = text.charAt(i);
            if (open == 0 && (c == '\'' || c == '"')) {
                open = c;
            } else if (c == open && (open == '\'' || text.charAt(i - 1) != '\\')) {
                open = 0;
            }
        }
        return open;
    }
}
