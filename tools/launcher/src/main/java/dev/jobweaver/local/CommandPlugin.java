package dev.jobweaver.local;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * Commands another module adds to {@code jobweaver}, found with {@link java.util.ServiceLoader} when that module is on
 * the classpath: the benchmark module adds {@code bench} and {@code chaos} this way, so the launcher does not depend on
 * it while {@code bench} and {@code chaos} still share the launcher's help, error handling and exit statuses.
 *
 * <p>An implementation is a public class with a public no-argument constructor, named in
 * {@code META-INF/services/dev.jobweaver.local.CommandPlugin}.
 */
public interface CommandPlugin {

    /**
     * The picocli command objects, in the order they are listed in the help.
     *
     * @param cwd what relative paths on the command line resolve against
     * @param out where a command prints its progress and report
     */
    List<Object> commands(Path cwd, PrintStream out);
}
