package dev.jobweaver.local;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code jobweaver key}: prints the admin API key of a home folder, alone on its line, for scripts:
 * {@code curl -H "Authorization: Bearer $(./jobweaver key)" localhost:8080/api/jobs}.
 */
@Command(name = "key",
        header = "Print the admin API key that `up` made for this home folder.",
        description = "The key alone on one line, for scripts. It is kept in DIR/secrets.properties, readable by its "
                + "owner only; `up` makes it on its first start in a home folder.")
public final class KeyCommand implements Callable<Integer> {

    @Mixin
    Cli.HelpOption help;

    @Option(names = "--home", paramLabel = "DIR",
            description = "The platform's home, as given to up (default: .jobweaver in the repository).")
    Path home;

    @Mixin
    Cli.RootOption repository;

    private final PrintStream out;

    public KeyCommand(PrintStream out) {
        this.out = out;
    }

    /** The home folder, absolute: {@code --home}, else {@code .jobweaver} in the repository. */
    Path home() {
        if (home != null) {
            return home.toAbsolutePath();
        }
        return repository.root().resolve(".jobweaver");
    }

    @Override
    public Integer call() {
        PlatformSecrets secrets = PlatformSecrets.load(home()).orElseThrow(() -> new IllegalStateException(
                "no admin key yet: " + PlatformSecrets.file(home()) + " does not exist. Start the platform with "
                        + "`./jobweaver up` (with the same --home, if you gave one) and it is made"));
        out.println(secrets.adminKey());
        out.flush();
        return 0;
    }
}
