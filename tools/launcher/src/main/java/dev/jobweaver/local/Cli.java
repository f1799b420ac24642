package dev.jobweaver.local;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.UsageMessageSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.TypeConversionException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * What every `./jobweaver` command shares on its command line: the help option, value converters, and how bad usage
 * and refusals are reported.
 *
 * <p>Exit status: 0 for {@code --help}; 2 for bad usage (one line naming the problem, one line pointing to
 * {@code --help}) and for a refusal before anything starts, such as a port in use or a platform that is not up.
 */
public final class Cli {

    /** Bad usage, or a refusal to start. */
    public static final int USAGE = CommandLine.ExitCode.USAGE;

    private Cli() {
    }

    /** {@code -h}, {@code --help} on every command. */
    public static final class HelpOption {
        @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
        boolean help;
    }

    /** {@code --root} on every command that works on the repository's build. */
    public static final class RootOption {
        @Option(names = "--root", paramLabel = "DIR",
                description = "The repository (default: the current directory; the jobweaver script passes its own "
                        + "folder).")
        Path root;

        /** The repository, absolute. */
        public Path root() {
            return (root == null ? Path.of("") : root).toAbsolutePath();
        }
    }

    /**
     * Applies the shared error handling and help layout to {@code commandLine} and all its subcommands (call it after
     * the subcommands are added).
     */
    public static CommandLine configure(CommandLine commandLine) {
        commandLine.setParameterExceptionHandler(new UsageError());
        commandLine.setExecutionExceptionHandler(new Refusal());
        commandLine.setUsageHelpAutoWidth(true);
        commandLine.setUsageHelpLongOptionsMaxWidth(26);
        commandLine.getSubcommands().values().forEach(command -> layOut(command.getCommandSpec().usageMessage()));
        return commandLine;
    }

    /**
     * The help every command shares: a blank line before each section, {@code Usage: jobweaver up [OPTIONS]}, and the
     * options in the order the command declares them; a section a command lacks prints no heading.
     */
    private static void layOut(UsageMessageSpec usage) {
        usage.sortOptions(false)
                .abbreviateSynopsis(true)
                .headerHeading("%n")
                .synopsisHeading("%nUsage: ")
                .parameterListHeading("%n")
                .optionListHeading("%nOptions:%n");
        // picocli prints these two headings even where their section is empty
        if (usage.description().length > 0) {
            usage.descriptionHeading("%n");
        }
        if (usage.footer().length > 0) {
            usage.footerHeading("%n");
        }
    }

    /**
     * Bad usage: {@code jobweaver up: unknown option '--worker'; did you mean --workers or --worker-port?} and a line
     * pointing to the command's help, both on the error stream.
     */
    static final class UsageError implements IParameterExceptionHandler {
        @Override
        public int handleParseException(ParameterException ex, String[] args) {
            CommandLine command = ex.getCommandLine();
            PrintWriter err = command.getErr();
            err.println(command.getCommandSpec().qualifiedName() + ": " + message(ex));
            err.println("Run ./" + command.getCommandSpec().qualifiedName() + " --help for the options.");
            err.flush();
            return USAGE;
        }

        /** Picocli's message, except for unmatched arguments, where only the first is named. */
        static String message(ParameterException ex) {
            if (ex instanceof UnmatchedArgumentException unmatched && !unmatched.getUnmatched().isEmpty()) {
                String first = unmatched.getUnmatched().getFirst();
                CommandSpec spec = ex.getCommandLine().getCommandSpec();
                if (first.startsWith("-")) {
                    List<String> suggestions = unmatched.getSuggestions();
                    return "unknown option '" + first + "'" + (suggestions.isEmpty() ? ""
                            : "; did you mean " + String.join(" or ", suggestions.subList(0,
                                    Math.min(3, suggestions.size()))) + "?");
                }
                if (!spec.subcommands().isEmpty()) {
                    return "unknown command '" + first + "' (" + String.join(", ", spec.subcommands().keySet()) + ")";
                }
                return "unexpected argument '" + first + "'";
            }
            return ex.getMessage().replace(System.lineSeparator(), " ").strip();
        }
    }

    /**
     * A command that refuses to go on (a port in use, a platform that is not up, a folder that cannot be written)
     * throws one of these exceptions; its message is the whole story, so no stack trace.
     */
    static final class Refusal implements IExecutionExceptionHandler {
        @Override
        public int handleExecutionException(Exception ex, CommandLine command, ParseResult parseResult)
                throws Exception {
            if (ex instanceof IllegalArgumentException || ex instanceof IllegalStateException
                    || ex instanceof UncheckedIOException) {
                command.getErr().println(command.getCommandSpec().qualifiedName() + ": " + ex.getMessage());
                command.getErr().flush();
                return USAGE;
            }
            throw ex;
        }
    }

    /** A whole number of at least 1. */
    public static final class PositiveInt implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            try {
                int n = Integer.parseInt(value.strip());
                if (n > 0) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new TypeConversionException("'" + value + "' is not a positive whole number");
        }
    }

    /** A TCP port, 1 to 65535. */
    public static final class Port implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            try {
                int n = Integer.parseInt(value.strip());
                if (n > 0 && n <= 65_535) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new TypeConversionException("'" + value + "' is not a port (1-65535)");
        }
    }
}
