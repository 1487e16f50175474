package stackbench.runner.suite

import org.snakeyaml.engine.v2.nodes.MappingNode
import org.snakeyaml.engine.v2.nodes.Node
import org.snakeyaml.engine.v2.nodes.ScalarNode
import org.snakeyaml.engine.v2.nodes.SequenceNode
import stackbench.runner.yaml.Problems

/**
 * Every `${env:NAME}` of a suite checked before anything starts: a malformed placeholder, or a variable that is not
 * set (or empty), is a problem at its line and key, naming the variable (exit 2), never a request sent with the
 * placeholder in it.
 */
internal object SecretsCheck {
    /** The variables the suite's values name (comments are not values), each checked. */
    fun check(root: Node, env: Map<String, String>, problems: Problems): List<String> =
        mutableListOf<String>().also { walk(root, "", env, problems, it) }.distinct()

    private fun walk(node: Node, path: String, env: Map<String, String>, problems: Problems, names: MutableList<String>) {
        when (node) {
            is ScalarNode -> {
                names += Secrets.names(node.value)
                Secrets.problems(node.value, env).forEach { problems.at(node, path.ifEmpty { "suite" }, it, HINT) }
            }
            is SequenceNode -> node.value.forEachIndexed { i, child -> walk(child, "$path[$i]", env, problems, names) }
            is MappingNode -> for (tuple in node.value) {
                val key = (tuple.keyNode as? ScalarNode)?.value ?: continue
                walk(tuple.valueNode, if (path.isEmpty()) key else "$path.$key", env, problems, names)
            }
            else -> {}
        }
    }

    private const val HINT = "set it in the environment of the run (e.g. a CI secret); the suite, results and reports keep \${env:NAME}, never the value"
}
