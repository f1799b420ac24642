package dev.jobweaver.common.workflow;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The rules of a workflow's graph, shared by the API (a {@code 400} that names the problem) and the scheduler (a
 * record that breaks them is quarantined): node ids unique and well formed, every dependency a node of the graph, no
 * cycle, at most {@link #MAX_NODES} nodes.
 */
public final class WorkflowGraph {

    /** The most nodes a workflow may have. */
    public static final int MAX_NODES = 100;
    /** A node id: a letter or digit, then letters, digits, {@code _} or {@code -}, at most 64 characters. */
    public static final Pattern NODE_ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");

    private WorkflowGraph() {
    }

    /**
     * The problems of {@code nodes}, each a sentence naming the field ({@code nodes[2].dependsOn[0]}) and the node; at
     * most {@code max} of them. Empty when the graph is valid.
     */
    public static List<String> problems(List<WorkflowNode> nodes, int max) {
        List<String> problems = new ArrayList<>();
        if (nodes == null || nodes.isEmpty()) {
            problems.add("nodes: a workflow needs at least one node");
            return problems;
        }
        if (nodes.size() > MAX_NODES) {
            problems.add("nodes: " + nodes.size() + " nodes, at most " + MAX_NODES + " are allowed");
            return problems;
        }
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < nodes.size() && problems.size() < max; i++) {
            WorkflowNode node = nodes.get(i);
            if (node == null || node.id() == null) {
                problems.add("nodes[" + i + "].id: required");
            } else if (!NODE_ID.matcher(node.id()).matches()) {
                problems.add("nodes[" + i + "].id: '" + node.id() + "' is not a node id (" + NODE_ID.pattern() + ")");
            } else if (index.putIfAbsent(node.id(), i) != null) {
                problems.add("nodes[" + i + "].id: duplicate id '" + node.id() + "' (also nodes[" + index.get(node.id())
                        + "])");
            }
        }
        for (int i = 0; i < nodes.size() && problems.size() < max; i++) {
            WorkflowNode node = nodes.get(i);
            if (node == null) {
                continue;
            }
            Set<String> seen = new HashSet<>();
            for (int d = 0; d < node.dependsOn().size() && problems.size() < max; d++) {
                String dependency = node.dependsOn().get(d);
                String field = "nodes[" + i + "].dependsOn[" + d + "]";
                if (dependency == null) {
                    problems.add(field + ": null is not a node id");
                } else if (dependency.equals(node.id())) {
                    problems.add(field + ": node '" + node.id() + "' depends on itself (a cycle)");
                } else if (!index.containsKey(dependency)) {
                    problems.add(field + ": unknown dependency '" + dependency + "' of node '" + node.id() + "'");
                } else if (!seen.add(dependency)) {
                    problems.add(field + ": node '" + node.id() + "' names dependency '" + dependency + "' twice");
                }
            }
        }
        if (problems.isEmpty()) {
            List<String> cycle = cycle(nodes);
            if (!cycle.isEmpty()) {
                problems.add("nodes: cycle " + String.join(" -> ", cycle));
            }
        }
        return problems;
    }

    /**
     * A cycle of a graph whose ids are unique and whose dependencies are known, as node ids from a node back to itself
     * ({@code a -> b -> a}, read "a depends on b, which depends on a"); empty when there is none.
     */
    static List<String> cycle(List<WorkflowNode> nodes) {
        Map<String, List<String>> edges = new LinkedHashMap<>();
        nodes.forEach(n -> edges.put(n.id(), n.dependsOn()));
        Map<String, Integer> state = new HashMap<>(); // absent: unvisited; 1: on the current path; 2: done
        for (String start : edges.keySet()) {
            if (state.containsKey(start)) {
                continue;
            }
            // Iterative depth-first search: a path of 100 nodes must not depend on the stack's depth.
            Deque<String> path = new ArrayDeque<>();
            Deque<Integer> next = new ArrayDeque<>();
            path.push(start);
            next.push(0);
            state.put(start, 1);
            while (!path.isEmpty()) {
                String node = path.peek();
                int i = next.pop();
                List<String> out = edges.get(node);
                if (i < out.size()) {
                    next.push(i + 1);
                    String dependency = out.get(i);
                    Integer s = state.get(dependency);
                    if (s == null) {
                        state.put(dependency, 1);
                        path.push(dependency);
                        next.push(0);
                    } else if (s == 1) {
                        List<String> cycle = new ArrayList<>();
                        List<String> onPath = new ArrayList<>(path);
                        java.util.Collections.reverse(onPath);
                        cycle.addAll(onPath.subList(onPath.indexOf(dependency), onPath.size()));
                        cycle.add(dependency);
                        return cycle;
                    }
                } else {
                    state.put(node, 2);
                    path.pop();
                }
            }
        }
        return List.of();
    }

    /** The nodes that depend on each node, directly: the reverse of {@code dependsOn}, in the graph's order. */
    public static Map<String, List<String>> dependents(List<WorkflowNode> nodes) {
        Map<String, List<String>> dependents = new LinkedHashMap<>();
        nodes.forEach(n -> dependents.put(n.id(), new ArrayList<>()));
        nodes.forEach(n -> n.dependsOn().forEach(d -> dependents.get(d).add(n.id())));
        return dependents;
    }
}
