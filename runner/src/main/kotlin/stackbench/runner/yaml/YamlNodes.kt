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
}

/**
 * Reads a YAML file's one document as nodes with their positions, for [YamlMap], within limits set on purpose
 * so that no file, however hostile, gets past them as anything but a suite problem (docs/suite-format.md).
 */
internal object YamlDocument {
    /** The largest file read, in bytes (and in code points, the engine's own limit): suites are a few KB. */
    const val MAX_BYTES = 1 shl 20
    /** The most aliases (`*name`) to lists or mappings in one file: a few are handy, thousands are a bomb. */
    const val MAX_ALIASES = 20
    /** The deepest nesting of lists and mappings: suites need 4; deeper is refused before the composer recurses. */
    const val MAX_DEPTH = 32

    private fun settings(source: String) = LoadSettings.builder()
        .setLabel(source)
        .setAllowDuplicateKeys(true) // reported as a problem by YamlMap, with both places
        .setCodePointLimit(MAX_BYTES)
        .setMaxAliasesForCollections(MAX_ALIASES)
        .setAllowRecursiveKeys(false)
        .setAllowNonScalarKeys(false)
        .build()

    /** The top mapping, or null with the problem recorded (invalid YAML, empty, or not a mapping: [what] must be [shape]). */
    fun compose(text: String, source: String, problems: Problems, what: String, shape: String): MappingNode? {
        val lines = text.lines()
        fun problem(line: Int, column: Int, message: String, hint: String? = null) {
            problems.all += SuiteProblem(source, line + 1, column + 1, "yaml", message, hint, lines.getOrNull(line))
        }
        if (text.length > MAX_BYTES) {
            problem(0, 0, "the file is ${text.length} characters long; a suite may be at most ${MAX_BYTES shr 10} KiB", "suites are a few KB: is this the right file?")
            return null
        }
        text.forEachIndexed { i, c ->
            if (c.code < 0x20 && c != '\t' && c != '\n' && c != '\r' || c.code == 0x7f) {
                val line = text.substring(0, i).count { it == '\n' }
                val column = i - (text.lastIndexOf('\n', i - 1) + 1)
                problem(line, column, "holds the control character U+%04X, which YAML does not allow; is this a text file?".format(c.code))
                return null
            }
        }
        val settings = settings(source)
        val node = try {
            Composer(settings, DepthLimit(ParserImpl(settings, StreamReader(settings, text)))).singleNode.orElse(null)
        } catch (e: MarkedYamlEngineException) {
            val mark = e.problemMark.orElse(null) ?: e.contextMark.orElse(null)
            problem(mark?.line ?: 0, mark?.column ?: 0, "not valid YAML: ${e.problem ?: e.context}".trimEnd())
            return null
        } catch (e: TooDeep) {
            problem(e.line, e.column, "lists and mappings nest deeper than $MAX_DEPTH levels", "a suite needs no more than 4")
            return null
        } catch (e: ReaderException) {
            val at = text.offsetByCodePoints(0, e.position.coerceIn(0, text.codePointCount(0, text.length)))
            val line = text.substring(0, at).count { it == '\n' }
            problem(line, at - (text.lastIndexOf('\n', at - 1) + 1), "not valid YAML text: ${e.message}")
            return null
        } catch (e: YamlEngineException) {
            // the engine's limits (aliases, size, keys) carry no position
            val hint = if (e.message?.contains("aliases") == true) "at most $MAX_ALIASES aliases to lists or mappings: is this an alias bomb?" else null
            problem(0, 0, "not read as YAML: ${e.message}", hint)
            return null
        } catch (e: StackOverflowError) {
            problem(0, 0, "nests too deeply to read")
            return null
        }
        if (node == null) return null
        if (node !is MappingNode) {
            problems.at(node, what, shape)
            return null
        }
        return node
    }

    private class TooDeep(val line: Int, val column: Int) : RuntimeException(null, null, false, false)

    /** Counts list and mapping starts as the composer reads them, and stops at [MAX_DEPTH] before it recurses that deep. */
    private class DepthLimit(private val parser: Parser) : Parser by parser {
        private var depth = 0
        override fun next(): Event {
            val event = parser.next()
            when (event.eventId) {
                Event.ID.MappingStart, Event.ID.SequenceStart -> if (++depth > MAX_DEPTH) {
                    val mark = event.startMark.orElse(null)
                    throw TooDeep(mark?.line ?: 0, mark?.column ?: 0)
                }
                Event.ID.MappingEnd, Event.ID.SequenceEnd -> depth--
                else -> {}
            }
            return event
        }
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
