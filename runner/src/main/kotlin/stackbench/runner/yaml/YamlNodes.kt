package stackbench.runner.yaml

import org.snakeyaml.engine.v2.api.LoadSettings
import org.snakeyaml.engine.v2.composer.Composer
import org.snakeyaml.engine.v2.events.Event
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException
import org.snakeyaml.engine.v2.exceptions.ReaderException
import org.snakeyaml.engine.v2.exceptions.YamlEngineException
import org.snakeyaml.engine.v2.nodes.MappingNode
import org.snakeyaml.engine.v2.nodes.Node
import org.snakeyaml.engine.v2.nodes.ScalarNode
import org.snakeyaml.engine.v2.nodes.SequenceNode
import org.snakeyaml.engine.v2.parser.Parser
import org.snakeyaml.engine.v2.parser.ParserImpl
import org.snakeyaml.engine.v2.scanner.StreamReader
import java.time.Duration

/** Collects problems against a source file, each placed at a YAML node's position. */
internal class Problems(private val file: String, private val lines: List<String>) {
    val all = mutableListOf<SuiteProblem>()

    fun at(node: Node?, key: String, message: String, hint: String? = null) {
        val mark = node?.startMark?.orElse(null)
        val line = (mark?.line ?: 0) + 1
        val column = (mark?.column ?: 0) + 1
        val problem = SuiteProblem(file, line, column, key, message, hint, lines.getOrNull(line - 1))
        if (problem !in all) all += problem // a template read once per row reports its mistake once
    }

    /** A problem at a position read earlier (1-based [line] and [column]), for checks made after the node was read. */
    fun atPosition(line: Int, column: Int, key: String, message: String, hint: String? = null) {
        val problem = SuiteProblem(file, line, column, key, message, hint, lines.getOrNull(line - 1))
        if (problem !in all) all += problem
    }
}

/**
 * A YAML mapping read key by key. Every key read is marked used; [finish] reports the keys nobody asked
 * for, so a misspelt key is an error rather than a setting quietly ignored.
 */
internal class YamlMap(val node: MappingNode, val path: String, val problems: Problems) {
    private val entries: Map<String, Pair<Node, Node>> = buildMap {
        for (tuple in node.value) {
            val key = (tuple.keyNode as? ScalarNode)?.value
            if (key == null) {
                problems.at(tuple.keyNode, path, "keys must be plain names")
                continue
            }
            if (containsKey(key)) problems.at(tuple.keyNode, qualify(key), "is given twice")
            put(key, tuple.keyNode to tuple.valueNode)
        }
    }
    private val used = mutableSetOf<String>()

    fun qualify(key: String) = if (path.isEmpty()) key else "$path.$key"

    fun has(key: String): Boolean = key in entries

    fun valueNode(key: String): Node? {
        used += key
        return entries[key]?.second
    }

    fun keyNode(key: String): Node? = entries[key]?.first

    fun scalar(key: String): ScalarNode? {
        val node = valueNode(key) ?: return null
        if (node !is ScalarNode) {
            problems.at(node, qualify(key), "must be a single value, not a ${kind(node)}")
            return null
        }
        return node
    }

    fun string(key: String): String? = scalar(key)?.value

    fun requiredString(key: String, hint: String? = null): String? {
        used += key
        if (!has(key)) {
            problems.at(node, qualify(key), "is required", hint)
            return null
        }
        return string(key)
    }

    fun boolean(key: String): Boolean? {
        val node = scalar(key) ?: return null
        return when (node.value.lowercase()) {
            "true", "yes", "on" -> true
            "false", "no", "off" -> false
            else -> null.also { problems.at(node, qualify(key), "'${node.value}' is not true or false") }
        }
    }

    fun int(key: String, range: IntRange): Int? {
        val node = scalar(key) ?: return null
        val value = node.value.toIntOrNull()
        if (value == null || value !in range) {
            problems.at(node, qualify(key), OutOfRange.notWholeNumber(node.value, range))
            return null
        }
        return value
    }

    fun double(key: String, min: Double, max: Double): Double? {
        val node = scalar(key) ?: return null
        val value = Units.number(node.value)
        if (value == null || value < min || value > max) {
            problems.at(node, qualify(key), OutOfRange.notNumber(node.value, min, max))
            return null
        }
        return value
    }

    fun duration(key: String, min: Duration = Duration.ZERO, max: Duration = Units.MAX_DURATION): Duration? {
        val node = scalar(key) ?: return null
        return parseDuration(node, qualify(key), min, max)
    }

    fun parseDuration(node: ScalarNode, key: String, min: Duration = Duration.ZERO, max: Duration = Units.MAX_DURATION): Duration? {
        val d = Units.duration(node.value)
        if (d == null) {
            problems.at(node, key, "'${node.value}' is not a duration", Units.DURATION_HINT)
            return null
        }
        if (d < min) {
            problems.at(node, key, OutOfRange.shorterThan(node.value, min))
            return null
        }
        if (d > max) {
            problems.at(node, key, OutOfRange.longerThan(node.value, max))
            return null
        }
        return d
    }

    fun map(key: String): YamlMap? {
        val node = valueNode(key) ?: return null
        if (node !is MappingNode) {
            problems.at(node, qualify(key), "must be a mapping (key: value lines), not a ${kind(node)}")
            return null
        }
        return YamlMap(node, qualify(key), problems)
    }

    /** A list of mappings, e.g. `apps:`. */
    fun maps(key: String): List<YamlMap>? {
        val node = valueNode(key) ?: return null
        if (node !is SequenceNode) {
            problems.at(node, qualify(key), "must be a list (lines starting with '- '), not a ${kind(node)}")
            return null
        }
        return node.value.mapIndexedNotNull { i, item ->
            if (item is MappingNode) YamlMap(item, "${qualify(key)}[$i]", problems)
            else null.also { problems.at(item, "${qualify(key)}[$i]", "must be a mapping, not a ${kind(item)}") }
        }
    }

    /** A value or a list of values: sweeps may be written `limit: 1000` or `limit: [100, 1000]`. */
    fun scalars(key: String): List<ScalarNode>? {
        val node = valueNode(key) ?: return null
        return when (node) {
            is ScalarNode -> listOf(node)
            is SequenceNode -> node.value.mapNotNull { item ->
                item as? ScalarNode ?: null.also { problems.at(item, qualify(key), "must hold single values, not a ${kind(item)}") }
            }.also { if (it.isEmpty()) problems.at(node, qualify(key), "must not be empty") }
            else -> null.also { problems.at(node, qualify(key), "must be a value or a list of values") }
        }
    }

    /** A mapping of plain names to plain values, e.g. Spring properties. */
    fun stringMap(key: String): Map<String, String>? {
        val m = map(key) ?: return null
        return m.node.value.mapNotNull { t ->
            val k = (t.keyNode as? ScalarNode)?.value
            val v = t.valueNode as? ScalarNode
            m.valueNode(k ?: "")
            if (k == null || v == null) null.also { problems.at(t.valueNode, m.path, "must map names to single values") }
            else k to v.value
        }.toMap()
    }

    /** Reports every key that no reader asked for. */
    fun finish() {
        for ((key, nodes) in entries) {
            if (key in used) continue
            val close = used.minByOrNull { editDistance(it, key) }?.takeIf { editDistance(it, key) <= 2 }
            problems.at(
                nodes.first, qualify(key), "is not a known key",
                if (close != null) "did you mean '$close'? known keys here: ${used.sorted().joinToString()}"
                else "known keys here: ${used.sorted().joinToString()}",
            )
        }
    }

    /**
     * Declares the keys this mapping may hold without reading them (for keys that only some variants
     * read), so [finish] knows them.
     */
    fun allow(vararg keys: String) {
        used += keys
    }

    companion object {
        fun kind(node: Node) = when (node) {
            is MappingNode -> "mapping"
            is SequenceNode -> "list"
            else -> "value"
        }

        internal fun editDistance(a: String, b: String): Int {
            val dp = IntArray(b.length + 1) { it }
            for (i in 1..a.length) {
                var prev = dp[0]
                dp[0] = i
                for (j in 1..b.length) {
                    val tmp = dp[j]
                    dp[j] = minOf(dp[j] + 1, dp[j - 1] + 1, prev + if (a[i - 1] == b[j - 1]) 0 else 1)
                    prev = tmp
                }
            }
            return dp[b.length]
        }
    }
}
