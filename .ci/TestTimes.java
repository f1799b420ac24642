import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Prints, after a test run, each module's test count and summed class time, then the ten slowest test classes, from
 * the Surefire and Failsafe XML reports under the tree given as the first argument (default: the working directory).
 * Run as a single-file program ({@code java .ci/TestTimes.java [ROOT]}) so that CI needs nothing built for it, and so
 * that the next slowdown shows in every CI log the day it lands.
 */
public final class TestTimes {

    private static final Pattern SUITE = Pattern.compile("<testsuite\\b([^>]*)>");
    private static final Pattern ATTRIBUTE = Pattern.compile("(\\w+)=\"([^\"]*)\"");

    record Suite(String module, String name, int tests, int failed, int skipped, double seconds) {}

    public static void main(String[] args) throws IOException {
        Path root = Path.of(args.length > 0 ? args[0] : ".").toAbsolutePath().normalize();
        List<Suite> suites = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(TestTimes::isReport).toList()) {
                Suite suite = read(root, file);
                if (suite != null) {
                    suites.add(suite);
                }
            }
        }
        if (suites.isEmpty()) {
            System.out.println("test times: no Surefire or Failsafe report under " + root);
            return;
        }
        Map<String, double[]> modules = new TreeMap<>();
        for (Suite s : suites) {
            double[] sum = modules.computeIfAbsent(s.module(), m -> new double[4]);
            sum[0] += s.tests();
            sum[1] += s.failed();
            sum[2] += s.skipped();
            sum[3] += s.seconds();
        }
        System.out.println();
        System.out.println("Tests per module (class times summed; the module's wall time is in Maven's Reactor Summary):");
        System.out.printf("  %-28s %6s %6s %7s %9s%n", "module", "tests", "failed", "skipped", "time");
        double[] total = new double[4];
        modules.forEach((module, sum) -> {
            System.out.printf("  %-28s %6d %6d %7d %9s%n", module, (int) sum[0], (int) sum[1], (int) sum[2],
                    minutes(sum[3]));
            for (int i = 0; i < 4; i++) {
                total[i] += sum[i];
            }
        });
        System.out.printf("  %-28s %6d %6d %7d %9s%n", "total", (int) total[0], (int) total[1], (int) total[2],
                minutes(total[3]));
        System.out.println();
        System.out.println("The ten slowest test classes:");
        suites.stream().sorted(Comparator.comparingDouble(Suite::seconds).reversed()).limit(10)
                .forEach(s -> System.out.printf("  %9s  %-24s %s (%d tests)%n", minutes(s.seconds()), s.module(),
                        s.name(), s.tests()));
        // The plain closing line a CI reader takes as the run's count, whatever runner made the reports.
        System.out.println();
        System.out.printf("tests: %d passed, %d failed, %d skipped%n", (int) (total[0] - total[1] - total[2]),
                (int) total[1], (int) total[2]);
    }

    private static boolean isReport(Path file) {
        String name = file.getFileName().toString();
        String parent = file.getParent() == null ? "" : file.getParent().getFileName().toString();
        return name.startsWith("TEST-") && name.endsWith(".xml")
                && (parent.equals("surefire-reports") || parent.equals("failsafe-reports"));
    }

    private static Suite read(Path root, Path file) throws IOException {
        String text = Files.readString(file);
        Matcher suite = SUITE.matcher(text);
        if (!suite.find()) {
            return null;
        }
        Map<String, String> attributes = new TreeMap<>();
        Matcher attribute = ATTRIBUTE.matcher(suite.group(1));
        while (attribute.find()) {
            attributes.put(attribute.group(1), attribute.group(2));
        }
        // .../<module>/target/<kind>-reports/TEST-x.xml: the module is the path between the root and target/
        Path module = root.relativize(file.getParent().getParent().getParent());
        return new Suite(module.toString().isEmpty() ? "." : module.toString(), attributes.getOrDefault("name", "?"),
                number(attributes, "tests"), number(attributes, "failures") + number(attributes, "errors"),
                number(attributes, "skipped"), Double.parseDouble(attributes.getOrDefault("time", "0").replace(",", "")));
    }

    private static int number(Map<String, String> attributes, String name) {
        return Integer.parseInt(attributes.getOrDefault(name, "0"));
    }

    private static String minutes(double seconds) {
        long whole = (long) seconds;
        return String.format("%d:%04.1f", whole / 60, seconds - whole / 60 * 60);
    }
}
