package dev.jobweaver.local;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The command line behind `./jobweaver`: {@code up} runs the platform on this machine ({@link UpCommand}),
 * {@code infra} only Kafka and PostgreSQL ({@link InfraCommand}), {@code key} prints the admin API key
 * ({@link KeyCommand}), {@code build --native} and {@code test --native} build and test the native executables
 * ({@link BuildCommand}, {@link NativeTestCommand}). The benchmark module adds {@code bench}, which measures a
 * running platform, and {@code chaos}, which kills parts of a platform of its own while jobs flow, through
 * {@link CommandPlugin} when it is on the classpath. The script itself runs plain {@code test} and {@code build},
 * which are Maven.
 *
 * <p>A new command is one more class with picocli's {@code @Command}, added in {@link #commandLine} (or, from another
 * module, by a {@link CommandPlugin}).
 */
@Command(name = "jobweaver",
        headerHeading = "%n",
        header = "JobWeaver on one machine, no Docker.",
        synopsisHeading = "%nUsage: ",
        synopsisSubcommandLabel = "COMMAND",
        commandListHeading = "%nCommands:%n",
        optionListHeading = "%nOptions:%n",
        footerHeading = "%n",
        footer = {"The jobweaver script runs `test` (the whole test suite, what CI runs) and `build` (everything, no "
                + "tests) itself; their --native forms come here.",
            "Run ./jobweaver COMMAND --help for a command's options."})
public final class JobWeaverLocal implements Runnable {

    @Mixin
    Cli.HelpOption help;

    @Spec
    CommandSpec spec;

    /**
     * The command line, with the launcher's commands and those of every {@link CommandPlugin} on the classpath;
     * a plugin's commands resolve relative paths against {@code cwd}; {@code key} and the plugins print to
     * {@code out}.
     */
    public static CommandLine commandLine(Path cwd, PrintStream out) {
        CommandLine commandLine = new CommandLine(new JobWeaverLocal())
                .addSubcommand(new UpCommand())
                .addSubcommand(new InfraCommand())
                .addSubcommand(new KeyCommand(out))
                .addSubcommand(new BuildCommand(out))
                .addSubcommand(new NativeTestCommand(out));
        for (CommandPlugin plugin : ServiceLoader.load(CommandPlugin.class)) {
            plugin.commands(cwd, out).forEach(commandLine::addSubcommand);
        }
        return Cli.configure(commandLine);
    }

    public static void main(String[] args) {
        // jboss-logmanager is on the launcher's classpath: name it before anything logs (./jobweaver does it for up)
        if (System.getProperty("java.util.logging.manager") == null) {
            System.setProperty("java.util.logging.manager", "org.jboss.logmanager.LogManager");
        }
        System.exit(commandLine(Path.of("").toAbsolutePath(), System.out).execute(args));
    }

    /** No command named: bad usage. */
    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(),
                "no command given (" + String.join(", ", spec.subcommands().keySet()) + ")");
    }

    /** The admin and embedded-server clients log every reconnect at INFO; the launcher's console is for people. */
    public static void quietInfrastructureLogs() {
        for (String noisy : List.of("org.apache.kafka", "io.zonky")) {
            java.util.logging.Logger.getLogger(noisy).setLevel(java.util.logging.Level.WARNING);
        }
        // NetworkClient warns on every refused connection while the broker starts: expected, not news.
        java.util.logging.Logger.getLogger("org.apache.kafka.clients.NetworkClient")
                .setLevel(java.util.logging.Level.SEVERE);
    }

    /** Runs {@code action} on JVM shutdown (Ctrl-C, SIGTERM) and returns a latch that opens when it is done. */
    public static CountDownLatch onShutdown(Runnable action) {
        CountDownLatch done = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                action.run();
            } finally {
                done.countDown();
            }
        }, "jobweaver-stop"));
        return done;
    }

    static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
