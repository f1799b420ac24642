package dev.jobweaver.k8s;

import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirement;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Evaluates the ingress NetworkPolicies of one namespace the way the Kubernetes network model defines them: a pod
 * selected by any policy with an Ingress type accepts only what one of those policies' rules allows.
 */
final class NetworkPolicies {

    /** A client: its pod labels, whether it sits in the policies' namespace, its namespace's labels. */
    record Source(String description, Map<String, String> podLabels, boolean sameNamespace,
            Map<String, String> namespaceLabels, boolean outsideCluster) {

        static Source pod(String description, Map<String, String> labels) {
            return new Source(description, labels, true, Map.of(), false);
        }

        static Source otherNamespace() {
            return new Source("a pod of another namespace", Map.of("app", "other"), false,
                    Map.of("kubernetes.io/metadata.name", "elsewhere"), false);
        }

        static Source external() {
            return new Source("a client outside the cluster", Map.of(), false, Map.of(), true);
        }
    }

    private final List<NetworkPolicy> policies;

    NetworkPolicies(List<NetworkPolicy> policies) {
        this.policies = policies;
    }

    /** Whether a connection from the source to a pod with these labels on this TCP port is allowed. */
    boolean allows(Source source, Map<String, String> destinationLabels, int port) {
        List<NetworkPolicy> selecting = policies.stream()
                .filter(policy -> governsIngress(policy) && matches(policy.getSpec().getPodSelector(), destinationLabels))
                .toList();
        if (selecting.isEmpty()) {
            return true;
        }
        return selecting.stream()
                .flatMap(policy -> Optional.ofNullable(policy.getSpec().getIngress()).orElse(List.of()).stream())
                .anyMatch(rule -> portAllowed(rule, port) && sourceAllowed(rule, source));
    }

    private static boolean governsIngress(NetworkPolicy policy) {
        List<String> types = policy.getSpec().getPolicyTypes();
        return types == null || types.isEmpty() || types.contains("Ingress");
    }

    private static boolean portAllowed(NetworkPolicyIngressRule rule, int port) {
        List<NetworkPolicyPort> ports = rule.getPorts();
        if (ports == null || ports.isEmpty()) {
            return true;
        }
        return ports.stream().anyMatch(p -> (p.getProtocol() == null || p.getProtocol().equals("TCP"))
                && p.getPort() != null && p.getPort().getIntVal() != null
                && (p.getEndPort() == null ? p.getPort().getIntVal() == port
                        : p.getPort().getIntVal() <= port && port <= p.getEndPort()));
    }

    private static boolean sourceAllowed(NetworkPolicyIngressRule rule, Source source) {
        List<NetworkPolicyPeer> from = rule.getFrom();
        if (from == null || from.isEmpty()) {
            return true;
        }
        return from.stream().anyMatch(peer -> peerMatches(peer, source));
    }

    private static boolean peerMatches(NetworkPolicyPeer peer, Source source) {
        if (peer.getIpBlock() != null) {
            // Pod IPs are usually inside any broad block too; treat an ipBlock as opening the door to everyone.
            return true;
        }
        if (source.outsideCluster()) {
            return false;
        }
        boolean namespaceOk = peer.getNamespaceSelector() == null
                ? source.sameNamespace()
                : matches(peer.getNamespaceSelector(), source.sameNamespace()
                        ? Map.of("kubernetes.io/metadata.name", "this")
                        : source.namespaceLabels());
        boolean podOk = peer.getPodSelector() == null || matches(peer.getPodSelector(), source.podLabels());
        return namespaceOk && podOk;
    }

    /** Label selector semantics: every matchLabels pair and every expression must hold; an empty selector matches all. */
    static boolean matches(LabelSelector selector, Map<String, String> labels) {
        if (selector == null) {
            return true;
        }
        Map<String, String> required = Optional.ofNullable(selector.getMatchLabels()).orElse(Map.of());
        for (var entry : required.entrySet()) {
            if (!entry.getValue().equals(labels.get(entry.getKey()))) {
                return false;
            }
        }
        for (LabelSelectorRequirement expression : Optional.ofNullable(selector.getMatchExpressions()).orElse(List.of())) {
            String value = labels.get(expression.getKey());
            List<String> values = Optional.ofNullable(expression.getValues()).orElse(List.of());
            boolean ok = switch (expression.getOperator()) {
                case "In" -> value != null && values.contains(value);
                case "NotIn" -> value == null || !values.contains(value);
                case "Exists" -> value != null;
                case "DoesNotExist" -> value == null;
                default -> throw new AssertionError("unknown selector operator " + expression.getOperator());
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
