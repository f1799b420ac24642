package dev.jobweaver.bench;

import java.util.List;
import java.util.Locale;

/** Small self-contained SVG charts (no scripts, no external resources) for the HTML report. */
public final class SvgChart {

    /** Series colours, in order. */
    static final List<String> PALETTE = List.of("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
            "#e377c2", "#7f7f7f");

    private static final int WIDTH = 720;
    private static final int HEIGHT = 300;
    private static final int LEFT = 64;
    private static final int RIGHT = 160;
    private static final int TOP = 32;
    private static final int BOTTOM = 44;

    private SvgChart() {
    }

    /**
     * A named line of points.
     *
     * @param name the legend label
     * @param xs x values
     * @param ys y values (same length)
     */
    public record Series(String name, double[] xs, double[] ys) {
    }

    /** A line chart of {@code series}; NaN points are skipped. */
    public static String lines(String title, String xLabel, String yLabel, List<Series> series) {
        return lines(title, xLabel, yLabel, series, Double.NaN, "");
    }

    /** A line chart with a dashed horizontal reference line (a target) at {@code reference}, unless NaN. */
    public static String lines(String title, String xLabel, String yLabel, List<Series> series, double reference,
                               String referenceLabel) {
        double maxX = 0;
        double maxY = 0;
        for (Series s : series) {
            for (int i = 0; i < s.xs().length; i++) {
                if (!Double.isNaN(s.ys()[i])) {
                    maxX = Math.max(maxX, s.xs()[i]);
                    maxY = Math.max(maxY, s.ys()[i]);
                }
            }
        }
        maxX = niceCeiling(maxX);
        maxY = niceCeiling(Double.isNaN(reference) ? maxY : Math.max(maxY, reference));
        StringBuilder svg = frame(title, xLabel, yLabel, maxX, maxY, true);
        reference(svg, reference, referenceLabel, maxY);
        for (int k = 0; k < series.size(); k++) {
            Series s = series.get(k);
            StringBuilder points = new StringBuilder();
            for (int i = 0; i < s.xs().length; i++) {
                if (!Double.isNaN(s.ys()[i])) {
                    points.append(num(x(s.xs()[i], maxX))).append(',').append(num(y(s.ys()[i], maxY))).append(' ');
                }
            }
            svg.append("<polyline fill=\"none\" stroke-width=\"1.5\" stroke=\"").append(color(k))
                    .append("\" points=\"").append(points.toString().trim()).append("\"/>\n");
            legend(svg, k, s.name());
        }
        return svg.append("</svg>\n").toString();
    }

    /** Grouped bars: one group per category (e.g. p50, p90, p99, max), one bar per series in each group. */
    public static String bars(String title, String yLabel, List<String> categories, List<Series> series) {
        return bars(title, yLabel, categories, series, Double.NaN, "");
    }

    /** Grouped bars with a dashed horizontal reference line (a target) at {@code reference}, unless NaN. */
    public static String bars(String title, String yLabel, List<String> categories, List<Series> series,
                              double reference, String referenceLabel) {
        double maxY = 0;
        for (Series s : series) {
            for (double v : s.ys()) {
                if (!Double.isNaN(v)) {
                    maxY = Math.max(maxY, v);
                }
            }
        }
        maxY = niceCeiling(Double.isNaN(reference) ? maxY : Math.max(maxY, reference));
        StringBuilder svg = frame(title, "", yLabel, 0, maxY, false);
        double groupWidth = (WIDTH - LEFT - RIGHT) / (double) Math.max(1, categories.size());
        double barWidth = groupWidth * 0.8 / Math.max(1, series.size());
        for (int c = 0; c < categories.size(); c++) {
            double groupX = LEFT + c * groupWidth;
            svg.append(text(groupX + groupWidth / 2, HEIGHT - BOTTOM + 16, "middle", categories.get(c)));
            for (int k = 0; k < series.size(); k++) {
                double v = c < series.get(k).ys().length ? series.get(k).ys()[c] : Double.NaN;
                if (Double.isNaN(v)) {
                    continue;
                }
                double bx = groupX + groupWidth * 0.1 + k * barWidth;
                double by = y(v, maxY);
                svg.append("<rect x=\"").append(num(bx)).append("\" y=\"").append(num(by)).append("\" width=\"")
                        .append(num(Math.max(1, barWidth - 2))).append("\" height=\"")
                        .append(num(HEIGHT - BOTTOM - by)).append("\" fill=\"").append(color(k)).append("\"><title>")
                        .append(escape(series.get(k).name() + " " + categories.get(c) + ": " + Targets.fmt(v)))
                        .append("</title></rect>\n");
            }
        }
        reference(svg, reference, referenceLabel, maxY);
        for (int k = 0; k < series.size(); k++) {
            legend(svg, k, series.get(k).name());
        }
        return svg.append("</svg>\n").toString();
    }

    private static StringBuilder frame(String title, String xLabel, String yLabel, double maxX, double maxY,
                                       boolean xTicks) {
        StringBuilder svg = new StringBuilder();
        svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH).append("\" height=\"")
                .append(HEIGHT).append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(HEIGHT)
                .append("\" font-family=\"sans-serif\" font-size=\"11\" role=\"img\">\n");
        svg.append("<title>").append(escape(title)).append("</title>\n");
        svg.append(text(WIDTH / 2.0 - RIGHT / 2.0, 18, "middle", title).replace("<text ", "<text font-size=\"13\" "));
        int bottom = HEIGHT - BOTTOM;
        for (int i = 0; i <= 4; i++) {
            double v = maxY * i / 4;
            double yy = y(v, maxY);
            svg.append("<line x1=\"").append(LEFT).append("\" x2=\"").append(WIDTH - RIGHT).append("\" y1=\"")
                    .append(num(yy)).append("\" y2=\"").append(num(yy)).append("\" stroke=\"#ddd\"/>\n");
            svg.append(text(LEFT - 6, yy + 4, "end", Targets.fmt(v)));
            if (xTicks) {
                double xv = maxX * i / 4;
                svg.append(text(x(xv, maxX), bottom + 16, "middle", Targets.fmt(xv)));
            }
        }
        svg.append("<line x1=\"").append(LEFT).append("\" x2=\"").append(LEFT).append("\" y1=\"").append(TOP)
                .append("\" y2=\"").append(bottom).append("\" stroke=\"#333\"/>\n");
        svg.append("<line x1=\"").append(LEFT).append("\" x2=\"").append(WIDTH - RIGHT).append("\" y1=\"")
                .append(bottom).append("\" y2=\"").append(bottom).append("\" stroke=\"#333\"/>\n");
        svg.append(text((LEFT + WIDTH - RIGHT) / 2.0, HEIGHT - 8, "middle", xLabel));
        svg.append("<text x=\"14\" y=\"").append(num((TOP + bottom) / 2.0)).append("\" text-anchor=\"middle\" ")
                .append("transform=\"rotate(-90 14 ").append(num((TOP + bottom) / 2.0)).append(")\">")
                .append(escape(yLabel)).append("</text>\n");
        return svg;
    }

    private static void reference(StringBuilder svg, double value, String label, double maxY) {
        if (Double.isNaN(value)) {
            return;
        }
        double yy = y(value, maxY);
        svg.append("<line class=\"reference\" x1=\"").append(LEFT).append("\" x2=\"").append(WIDTH - RIGHT)
                .append("\" y1=\"").append(num(yy)).append("\" y2=\"").append(num(yy))
                .append("\" stroke=\"#c62828\" stroke-dasharray=\"6 4\"/>\n");
        svg.append(text(LEFT + 4, yy - 4, "start", label).replace("<text ", "<text fill=\"#c62828\" "));
    }

    private static void legend(StringBuilder svg, int k, String name) {
        double ly = TOP + 6 + k * 16;
        svg.append("<rect x=\"").append(WIDTH - RIGHT + 12).append("\" y=\"").append(num(ly - 8))
                .append("\" width=\"10\" height=\"10\" fill=\"").append(color(k)).append("\"/>\n");
        svg.append(text(WIDTH - RIGHT + 26, ly + 1, "start", name));
    }

    private static String text(double x, double y, String anchor, String content) {
        return "<text x=\"" + num(x) + "\" y=\"" + num(y) + "\" text-anchor=\"" + anchor + "\">" + escape(content)
                + "</text>\n";
    }

    private static double x(double value, double max) {
        return LEFT + (max <= 0 ? 0 : value / max) * (WIDTH - LEFT - RIGHT);
    }

    private static double y(double value, double max) {
        return HEIGHT - BOTTOM - (max <= 0 ? 0 : value / max) * (HEIGHT - TOP - BOTTOM);
    }

    private static String color(int k) {
        return PALETTE.get(k % PALETTE.size());
    }

    /** The smallest round number (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 × 10^n) at or above {@code value}; 1 for 0. */
    static double niceCeiling(double value) {
        if (!(value > 0)) {
            return 1;
        }
        double magnitude = Math.pow(10, Math.floor(Math.log10(value)));
        for (double step : new double[] {1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10}) {
            if (step * magnitude >= value - 1e-9 * magnitude) {
                return step * magnitude;
            }
        }
        return 10 * magnitude;
    }

    private static String num(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    /** Escapes text for HTML and SVG. */
    static String escape(String s) {
        return s == null ? "" : s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                .replace("\"", "&quot;");
    }
}
