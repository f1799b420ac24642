package dev.jobweaver.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

class SvgChartTest {

    private static Document parse(String svg) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void lineChartIsWellFormedSvgWithOnePolylinePerSeries() throws Exception {
        String svg = SvgChart.lines("Completions <per> second", "s", "jobs/s", List.of(
                new SvgChart.Series("burst", new double[] {0, 1, 2}, new double[] {100, 2000, 1500}),
                new SvgChart.Series("a & b", new double[] {0, 1}, new double[] {5, Double.NaN})));
        Document doc = parse(svg);
        assertThat(doc.getDocumentElement().getTagName()).isEqualTo("svg");
        assertThat(doc.getElementsByTagName("polyline").getLength()).isEqualTo(2);
        String points = doc.getElementsByTagName("polyline").item(0).getAttributes().getNamedItem("points")
                .getNodeValue();
        assertThat(points.split(" ")).hasSize(3);
        assertThat(doc.getElementsByTagName("polyline").item(1).getAttributes().getNamedItem("points")
                .getNodeValue().split(" ")).as("NaN skipped").hasSize(1);
        assertThat(svg).contains("Completions &lt;per&gt; second", "a &amp; b").doesNotContain("<script");
    }

    @Test
    void barChartHasOneBarPerSeriesAndCategory() throws Exception {
        String svg = SvgChart.bars("latency", "ms", List.of("p50", "p90", "p99", "max"), List.of(
                new SvgChart.Series("burst", new double[4], new double[] {3, 8, 20, 90}),
                new SvgChart.Series("steady", new double[4], new double[] {2, 4, 9, Double.NaN})));
        Document doc = parse(svg);
        // 7 bars + 2 legend squares
        assertThat(doc.getElementsByTagName("rect").getLength()).isEqualTo(9);
        assertThat(svg).contains("burst max: 90");
    }

    @Test
    void axesEndOnRoundNumbers() {
        assertThat(SvgChart.niceCeiling(1_830)).isEqualTo(2_000);
        assertThat(SvgChart.niceCeiling(2_000)).isEqualTo(2_000);
        assertThat(SvgChart.niceCeiling(0.37)).isEqualTo(0.4);
        assertThat(SvgChart.niceCeiling(61)).isEqualTo(80);
        assertThat(SvgChart.niceCeiling(5_078)).isEqualTo(6_000);
        assertThat(SvgChart.niceCeiling(9_100)).isEqualTo(10_000);
        assertThat(SvgChart.niceCeiling(0)).isEqualTo(1);
    }

    @Test
    void aReferenceLineMarksTheTargetAndStaysOnTheChart() throws Exception {
        String svg = SvgChart.lines("RSS", "s", "MB", List.of(
                new SvgChart.Series("api", new double[] {0, 1}, new double[] {120, 150})), 200, "target 200 MB");
        Document doc = parse(svg);
        assertThat(svg).contains("class=\"reference\"", "target 200 MB");
        // the axis grows to include the target: top grid label is 200
        assertThat(svg).contains(">200</text>");
        assertThat(doc.getElementsByTagName("line").getLength()).isGreaterThan(5);
        assertThat(SvgChart.lines("x", "s", "y", List.of())).doesNotContain("reference");
    }
}
