package stackbench.runner.yaml

import org.snakeyaml.engine.v2.api.LoadSettings
import org.snakeyaml.engine.v2.composer.Composer
import org.snakeyaml.engine.v2.events.Event
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException
import org.snakeyaml.engine.v2.exceptions.ReaderException
import org.snakeyaml.engine.v2.exceptions.YamlEngineException
import org.snakeyaml.engine.v2.nodes.MappingNode
import org.snakeyaml.engine.v2.parser.Parser
import org.snakeyaml.engine.v2.parser.ParserImpl
import org.snakeyaml.engine.v2.scanner.StreamReader

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
