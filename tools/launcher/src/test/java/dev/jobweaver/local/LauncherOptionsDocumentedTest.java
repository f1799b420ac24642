package dev.jobweaver.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.jobweaver.common.messaging.Topics;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * docs/configuration.md documents every option of the launcher's commands, with the default picocli applies, and
 * names no option they do not have: the table "Options of `up` and `infra`" for those two, the commands table's
 * synopsis for {@code key}. The defaults of {@code --partitions} name every topic with its count.
 */
class LauncherOptionsDocumentedTest {

    private static final Pattern OPTION = Pattern.compile("^\\| `(--[a-z-]+)[^`]*` \\| ([^|]*) \\|", Pattern.MULTILINE);

    private final String configuration = read("docs/configuration.md");
    private final Map<String, CommandLine> commands = JobWeaverLocal
            .commandLine(Path.of("."), new PrintStream(PrintStream.nullOutputStream())).getSubcommands();

    @Test
    void everyOptionOfUpAndInfraIsInTheirTableWithItsDefault() {
        Map<String, String> documented = upAndInfraTable();
        for (String command : List.of("up", "infra")) {
            for (OptionSpec option : options(command)) {
                assertThat(documented).as("docs/configuration.md's options of up and infra lack %s of %s",
                        option.longestName(), command).containsKey(option.longestName());
                String value = option.defaultValue() != null ? option.defaultValue()
                        : option.initialValue() instanceof Integer n ? n.toString() : null;
                if (value != null) {
                    assertThat(documented.get(option.longestName())).as("default of %s", option.longestName())
                            .isEqualTo(value);
                }
            }
        }
    }

    @Test
    void everyDocumentedOptionOfUpAndInfraExists() {
        Set<String> names = new TreeSet<>();
        List.of("up", "infra").forEach(c -> options(c).forEach(o -> names.add(o.longestName())));
        assertThat(names).as("options of up and infra; docs/configuration.md names more")
                .containsAll(upAndInfraTable().keySet());
    }

    @Test
    void theSynopsisOfKeyNamesItsOptions() {
        Matcher row = Pattern.compile("^\\| `\\./jobweaver key ([^`]*)`", Pattern.MULTILINE).matcher(configuration);
        assertThat(row.find()).as("a row for ./jobweaver key in docs/configuration.md").isTrue();
        for (OptionSpec option : options("key")) {
            assertThat(row.group(1)).as("the synopsis of key in docs/configuration.md").contains(option.longestName());
        }
    }

    @Test
    void theDefaultPartitionsNameEveryTopicWithItsCount() {
        String row = configuration.lines().filter(l -> l.startsWith("| `--partitions ")).findFirst().orElseThrow();
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
        assertThat(documented).as("the defaults of --partitions in docs/configuration.md").isEqualTo(actual);
    }

    private List<OptionSpec> options(String command) {
        return commands.get(command).getCommandSpec().options().stream()
                .filter(o -> !o.usageHelp() && !o.versionHelp()).toList();
    }

    private Map<String, String> upAndInfraTable() {
        int start = configuration.indexOf("### Options of `up` and `infra`");
        String table = configuration.substring(start, configuration.indexOf("\n\n", configuration.indexOf("| option", start)));
        Map<String, String> options = new TreeMap<>();
        Matcher m = OPTION.matcher(table);
        while (m.find()) {
            options.put(m.group(1), m.group(2).strip().replace("`", ""));
        }
        return options;
    }

    private static String read(String relative) {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve(relative))) {
                try {
                    return Files.readString(dir.resolve(relative));
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            }
        }
        throw new IllegalStateException("no " + relative + " above " + Path.of("").toAbsolutePath());
    }
}
