package dev.jobweaver.bench.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.bench.Workload;
import dev.jobweaver.common.messaging.Topics;
import dev.jobweaver.local.JobWeaverLocal;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * docs/operations.md documents every option of every command of `./jobweaver`, with the default picocli applies, and
 * names no option a command does not have: each command has a table under a heading "### Options of" that names it in
 * backticks ("### Options of `up` and `infra`" serves both). The bench's section names every workload, and the
 * defaults of {@code --partitions} name every topic with its count.
 *
 * <p>It lives in the bench module because only there is the whole command line on the classpath: {@code bench} and
 * {@code chaos} join the launcher's commands through its {@code CommandPlugin}.
 */
class LauncherOptionsDocumentedTest {

    private static final String DOC = "docs/operations.md";
    /** A table row whose first cell names options in backticks; the second cell is the default. */
    private static final Pattern ROW = Pattern.compile("^\\| (`--[^|]*) \\| ([^|]*) \\|", Pattern.MULTILINE);
    private static final Pattern NAME = Pattern.compile("`(--[a-z-]+)|, `?(--[a-z-]+)");
    /** A table cell may hold a pipe escaped as \|, which would end the cell for the patterns above. */
    private static final String ESCAPED_PIPE = "\\|";

    private final String operations = read(DOC).replace(ESCAPED_PIPE, "/");
    private final Map<String, CommandLine> commands = JobWeaverLocal
            .commandLine(Path.of("."), new PrintStream(PrintStream.nullOutputStream())).getSubcommands();

    @Test
    void theCommandLineHasEveryCommandOfTheScript() {
        assertThat(commands).containsOnlyKeys("up", "infra", "key", "build", "test", "bench", "chaos");
    }

    @Test
    void everyOptionOfEveryCommandIsInItsTableWithItsDefault() {
        commands.forEach((command, line) -> {
            Map<String, String> documented = table(command);
            for (OptionSpec option : options(line)) {
                assertThat(documented).as("%s's options of %s lack %s", DOC, command, option.longestName())
                        .containsKey(option.longestName());
                String value = option.defaultValue() != null ? option.defaultValue()
                        : option.initialValue() instanceof Integer n ? n.toString() : null;
                if (value != null) {
                    assertThat(documented.get(option.longestName()))
                            .as("%s's default of %s %s", DOC, command, option.longestName()).isEqualTo(value);
                }
            }
        });
    }

    @Test
    void everyDocumentedOptionExists() {
        // A table shared by several commands ("`up` and `infra`") may name an option of any of them.
        Map<String, Set<String>> optionsBySection = new TreeMap<>();
        commands.forEach((command, line) -> options(line).forEach(o -> optionsBySection
                .computeIfAbsent(section(command), s -> new TreeSet<>()).add(o.longestName())));
        commands.keySet().forEach(command -> assertThat(optionsBySection.get(section(command)))
                .as("options of %s; %s names more", command, DOC).containsAll(table(command).keySet()));
    }

    @Test
    void theSynopsisOfKeyNamesItsOptions() {
        Matcher row = Pattern.compile("^\\| `\\./jobweaver key ([^`]*)`", Pattern.MULTILINE).matcher(operations);
        assertThat(row.find()).as("a row for ./jobweaver key in %s", DOC).isTrue();
        for (OptionSpec option : options(commands.get("key"))) {
            assertThat(row.group(1)).as("the synopsis of key in %s", DOC).contains(option.longestName());
        }
    }

    @Test
    void theBenchSectionNamesEveryWorkload() {
        String section = section("bench");
        Arrays.stream(Workload.values()).forEach(w -> assertThat(section)
                .as("%s's options of bench name the workload %s", DOC, w.cliName()).contains("`" + w.cliName() + "`"));
    }

    @Test
    void theDefaultPartitionsNameEveryTopicWithItsCount() {
        String row = operations.lines().filter(l -> l.startsWith("| `--partitions ")).findFirst().orElseThrow();
        String defaults = row.split("\\|")[2];
        Map<String, Integer> documented = new TreeMap<>();
        Matcher group = Pattern.compile("(\\d+) for ((?:`[a-z-]+`(?:, | and )?)+)").matcher(defaults);
        while (group.find()) {
            Matcher topic = Pattern.compile("`([a-z-]+)`").matcher(group.group(2));
            while (topic.find()) {
                documented.put(topic.group(1), Integer.parseInt(group.group(1)));
            }
        }
        Map<String, Integer> actual = new TreeMap<>();
        Topics.ALL.forEach(t -> actual.put(t.name(), t.partitions()));
        assertThat(documented).as("the defaults of --partitions in %s", DOC).isEqualTo(actual);
    }

    private static List<OptionSpec> options(CommandLine command) {
        return command.getCommandSpec().options().stream().filter(o -> !o.usageHelp() && !o.versionHelp()).toList();
    }

    /** From the heading "### Options of ..." that names {@code command} in backticks to the next heading. */
    private String section(String command) {
        Matcher heading = Pattern.compile("^### Options of .*`" + command + "`.*$", Pattern.MULTILINE).matcher(operations);
        assertThat(heading.find()).as("a heading \"### Options of `%s`\" in %s", command, DOC).isTrue();
        int end = operations.indexOf("\n#", heading.end());
        return operations.substring(heading.end(), end < 0 ? operations.length() : end);
    }

    /** Every option the command's table names, with the default cell (backticks removed). */
    private Map<String, String> table(String command) {
        Map<String, String> options = new TreeMap<>();
        Matcher row = ROW.matcher(section(command));
        while (row.find()) {
            Matcher name = NAME.matcher(row.group(1));
            while (name.find()) {
                options.put(name.group(1) != null ? name.group(1) : name.group(2),
                        row.group(2).strip().replace("`", ""));
            }
        }
        return options;
    }

    private static String read(String relative) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(relative))) {
                try {
                    return Files.readString(dir.resolve(relative));
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        throw new IllegalStateException("no " + relative + " above " + Path.of("").toAbsolutePath());
    }
}
