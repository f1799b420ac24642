package dev.jobweaver.common.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkflowGraphTest {

    private static WorkflowNode node(String id, String... dependsOn) {
        return new WorkflowNode(id, Arrays.asList(dependsOn));
    }

    @Test
    void aDiamondIsValid() {
        List<WorkflowNode> diamond = List.of(node("a"), node("b", "a"), node("c", "a"), node("d", "b", "c"));

        assertThat(WorkflowGraph.problems(diamond, 10)).isEmpty();
        assertThat(WorkflowGraph.dependents(diamond))
                .isEqualTo(Map.of("a", List.of("b", "c"), "b", List.of("d"), "c", List.of("d"), "d", List.of()));
    }

    @Test
    void aCycleIsNamedWithItsPath() {
        List<WorkflowNode> nodes = List.of(node("start"), node("a", "start", "c"), node("b", "a"), node("c", "b"));

        assertThat(WorkflowGraph.problems(nodes, 10)).singleElement().asString()
                .startsWith("nodes: cycle ").contains("a").contains("b").contains("c").doesNotContain("start");
    }

    @Test
    void aNodeThatDependsOnItselfIsACycle() {
        assertThat(WorkflowGraph.problems(List.of(node("a", "a")), 10)).singleElement().asString()
                .isEqualTo("nodes[0].dependsOn[0]: node 'a' depends on itself (a cycle)");
    }

    @Test
    void anUnknownDependencyIsNamedWithItsNode() {
        assertThat(WorkflowGraph.problems(List.of(node("a"), node("b", "x")), 10)).singleElement().asString()
                .isEqualTo("nodes[1].dependsOn[0]: unknown dependency 'x' of node 'b'");
    }

    @Test
    void aDuplicateIdIsNamedWithBothPlaces() {
        assertThat(WorkflowGraph.problems(List.of(node("a"), node("b"), node("a")), 10)).singleElement().asString()
                .isEqualTo("nodes[2].id: duplicate id 'a' (also nodes[0])");
    }

    @Test
    void ids_count_and_repeats_are_checked() {
        assertThat(WorkflowGraph.problems(List.of(), 10)).containsExactly("nodes: a workflow needs at least one node");
        assertThat(WorkflowGraph.problems(List.of(node("-x")), 10)).singleElement().asString()
                .startsWith("nodes[0].id: '-x' is not a node id");
        assertThat(WorkflowGraph.problems(List.of(new WorkflowNode(null, null)), 10))
                .containsExactly("nodes[0].id: required");
        assertThat(WorkflowGraph.problems(List.of(node("a"), node("b", "a", "a")), 10))
                .containsExactly("nodes[1].dependsOn[1]: node 'b' names dependency 'a' twice");
        List<WorkflowNode> many = new ArrayList<>();
        for (int i = 0; i <= WorkflowGraph.MAX_NODES; i++) {
            many.add(node("n" + i));
        }
        assertThat(WorkflowGraph.problems(many, 10)).containsExactly("nodes: 101 nodes, at most 100 are allowed");
        assertThat(WorkflowGraph.problems(many.subList(0, 100), 10)).isEmpty();
    }

    @Test
    void aLongChainIsCheckedWithoutDeepRecursion() {
        List<WorkflowNode> chain = new ArrayList<>();
        chain.add(node("n0", "n99"));
        for (int i = 1; i < 100; i++) {
            chain.add(node("n" + i, "n" + (i - 1)));
        }

        assertThat(WorkflowGraph.problems(chain, 10)).singleElement().asString().startsWith("nodes: cycle n0 -> n99");
    }
}
