package dev.jobweaver.local;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code jobweaver test --native}: the native test lane. The jobweaver script runs the JVM suite ({@code test}
 * without {@code --native}) with Maven directly.
 */
@Command(name = "test",
        header = "Run the test suite; with --native, the native lane against the services' executables.",
        description = {
            "Without --native the jobweaver script runs ./mvnw -B verify (what CI runs), options going to Maven.",
            "",
            "With --native the executables that are missing or older than their sources are built first (as build "
                    + "--native --missing), then ./mvnw -B verify -Pnative runs each service's @QuarkusIntegrationTest "
                    + "suite and the end-to-end scenarios tagged native against them. Arguments test does not know go "
                    + "to Maven.",
            "",
            "--quick-build builds them in the builder's quick mode (-Ob): the same code, metadata and initialisation, "
                    + "less optimised, in less time (CI's lane). Such executables are for tests: ./jobweaver build "
                    + "--native builds the ones to run and measure."})
final class NativeTestCommand extends MavenCommand {

    @Option(names = "--native", required = true, description = "The native lane.")
    boolean nativeLane;

    @Option(names = "--quick-build",
            description = "Build the missing or stale executables in the builder's quick mode (-Ob), for tests only.")
    boolean quickBuild;

    NativeTestCommand(PrintStream out) {
        super(out);
    }

    @Override
    public Integer call() {
        Path root = repository.root();
        Path builder = NativeBuild.builder(root, System.getenv(), Path.of(System.getProperty("user.home")), out);
        var outOfDate = NativeBuild.toBuild(root, true);
        if (!outOfDate.isEmpty()) {
            int built = NativeBuild.build(root, outOfDate, builder, quickBuild, List.of(), out);
            if (built != 0) {
                return built;
            }
        }
        return NativeBuild.run(NativeBuild.testCommand(root, builder, maven), root);
    }
}
