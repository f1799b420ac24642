package dev.jobweaver.local;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code jobweaver build --native}: the services' native executables. The jobweaver script itself runs a plain
 * {@code build} (Maven install of everything), which must work before this launcher is built.
 */
@Command(name = "build",
        header = "Build everything (no tests); with --native, the three services' native executables.",
        description = {
            "Without --native the jobweaver script runs ./mvnw install, tests skipped.",
            "",
            "With --native each service is built with Maven's native profile "
                    + "(./mvnw package -Pnative -pl SERVICE -am), one after another, 5-18 minutes and 5-8 GB each; each one's build time and executable size are "
                    + "printed. The executables are SERVICE/target/jobweaver-SERVICE-1.0.0-SNAPSHOT-runner, which "
                    + "./jobweaver up --native runs.",
            "",
            "The native-image builder (GraalVM or Mandrel for JDK 25) is found through GRAALVM_HOME, else native-image "
                    + "on the PATH, else the folder jobweaver/native-image of the user's cache (XDG_CACHE_HOME, by "
                    + "default ~/.cache); where none is found and the repository has a shared/native/assemble.sh "
                    + "beside it, that script assembles one into the cache folder (once per machine). Without a builder build exits with status 2 and says what "
                    + "to install.",
            "",
            "On a machine of 2 cores or fewer the builder runs with --parallelism=1 and one processor, leaving a core "
                    + "to the rest of the machine. Arguments build does not know go to Maven (e.g. -o)."})
final class BuildCommand extends MavenCommand {

    @Option(names = "--native", description = "Build the services' native executables.")
    boolean nativeExecutables;

    @Option(names = "--missing", description = "With --native: only the executables that are missing or older than "
            + "their sources (the service's, common's, the poms).")
    boolean onlyMissing;

    BuildCommand(PrintStream out) {
        super(out);
    }

    @Override
    public Integer call() {
        Path root = repository.root();
        if (!nativeExecutables) {
            return NativeBuild.run(plainBuild(root, maven), root);
        }
        var services = NativeBuild.toBuild(root, onlyMissing);
        if (services.isEmpty()) {
            out.println("Every native executable exists and is newer than its sources.");
            return 0;
        }
        Path builder = NativeBuild.builder(root, System.getenv(), Path.of(System.getProperty("user.home")), out);
        return NativeBuild.build(root, services, builder, false, maven, out);
    }

    /** What the jobweaver script's own {@code build} runs: everything installed, tests skipped. */
    static List<String> plainBuild(Path root, List<String> maven) {
        List<String> command = new ArrayList<>(List.of(root.resolve("mvnw").toString(), "-B", "-q", "install",
                "-DskipTests", "-pl", "!src/test-e2e"));
        command.addAll(maven);
        return command;
    }
}
