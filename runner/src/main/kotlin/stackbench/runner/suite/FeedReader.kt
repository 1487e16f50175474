package stackbench.runner.suite

import org.snakeyaml.engine.v2.nodes.ScalarNode
import stackbench.runner.yaml.Problems
import stackbench.runner.yaml.YamlMap
import tools.jackson.databind.json.JsonMapper
import java.nio.file.Files
import java.nio.file.Path

/**
 * Reads `feed:` of a declared endpoint: each feed a name and one source, `file:` (CSV with a header row, or JSON
 * lines, `.csv` / `.jsonl`, relative to the suite's folder [folder]), `range: a..b` or `one-of: [..]`, and `pick:`
 * (`sequential`, `random`, `per-user`). A file's problems name the file and its line.
 */
internal class FeedReader(private val problems: Problems, private val folder: Path) {

    /** The names `feed:` declares, read or not: a feed with a mistake is reported once, not again at each placeholder naming it. */
    fun names(m: YamlMap): Set<String> = m.node.value.mapNotNull { (it.keyNode as? ScalarNode)?.value }.toSet()

    fun read(m: YamlMap): List<Feed> = m.node.value.mapNotNull { t ->
        val name = (t.keyNode as? ScalarNode)?.value ?: return@mapNotNull null
        val f = m.map(name) ?: return@mapNotNull null
        if (!NAME.matches(name)) problems.at(t.keyNode, m.qualify(name), "'$name' may hold only letters, digits and '_'", "requests read it as {$name} or {$name.column}")
        feed(name, f)
    }.also { m.finish() }

    private fun feed(name: String, f: YamlMap): Feed? {
        val sources = listOf("file", "range", "one-of").filter { f.has(it) }
        val pickNode = f.scalar("pick")
        val pick = pickNode?.let { n ->
            Pick.byId(n.value) ?: null.also { problems.at(n, f.qualify("pick"), "'${n.value}' is not a way to draw values", "one of: ${Pick.entries.joinToString { it.id }}") }
        }
        if (sources.size != 1) {
            problems.at(f.node, f.path, "must give one of file, range, one-of",
                "e.g. $name: {file: data/order-ids.csv, pick: random}, {range: 1..1000}, or {one-of: [book, lamp]}")
            f.allow("file", "range", "one-of")
            f.finish()
            return null
        }
        val table: Pair<List<String>, List<List<String>>>? = when (sources.single()) {
            "file" -> f.scalar("file")?.let { file(it, f.qualify("file")) }
            "range" -> f.scalar("range")?.let { range(it, f.qualify("range")) }
            else -> f.scalars("one-of")?.map { it.value }?.takeIf { it.isNotEmpty() }?.let { listOf(VALUE) to it.map { v -> listOf(v) } }
        }
        f.finish()
        if (table == null || table.second.isEmpty()) return null
        val source = when (sources.single()) {
            "file" -> f.string("file")!!
            "range" -> f.string("range")!!
            else -> "one-of"
        }
        return Feed(name, pick ?: if (sources.single() == "one-of") Pick.RANDOM else Pick.SEQUENTIAL, table.first, table.second, source)
    }

    private fun range(node: ScalarNode, key: String): Pair<List<String>, List<List<String>>>? {
        val match = Regex("(-?\\d{1,15})\\.\\.(-?\\d{1,15})").matchEntire(node.value.trim())
        if (match == null) return null.also { problems.at(node, key, "'${node.value}' is not a range", "a..b, e.g. range: 1..1000") }
        val (a, b) = match.destructured.let { (x, y) -> x.toLong() to y.toLong() }
        if (b < a) return null.also { problems.at(node, key, "'${node.value}' is an empty range", "a..b with a <= b") }
        if (b - a + 1 > MAX_ROWS) return null.also { problems.at(node, key, "'${node.value}' holds ${b - a + 1} values", "at most $MAX_ROWS: each driver's script holds them all") }
        return listOf(VALUE) to (a..b).map { listOf(it.toString()) }
    }

    private fun file(node: ScalarNode, key: String): Pair<List<String>, List<List<String>>>? {
        val path = folder.resolve(node.value)
        val text = runCatching { Files.readString(path) }.getOrElse {
            return null.also { _ -> problems.at(node, key, "cannot read $path: ${it.message ?: it.javaClass.simpleName}", "a path relative to the suite's folder") }
        }
        val name = node.value
        val result = when {
            name.endsWith(".csv") -> FeedFiles.csv(text)
            name.endsWith(".jsonl") || name.endsWith(".ndjson") -> FeedFiles.jsonLines(text, JSON)
            else -> return null.also { problems.at(node, key, "'$name' is neither .csv nor .jsonl", "a CSV file with a header row, or JSON lines (one object a line)") }
        }
        result.problem?.let { (line, message) -> return null.also { problems.at(node, key, "$path:$line: $message") } }
        if (result.rows.isEmpty()) return null.also { problems.at(node, key, "$path holds no values", "a header row, then one row a value") }
        if (result.rows.size > MAX_ROWS) return null.also { problems.at(node, key, "$path holds ${result.rows.size} rows", "at most $MAX_ROWS: each driver's script holds them all") }
        return result.columns to result.rows
    }

    companion object {
        /** The column of a range's or a list's values: `{qty}` or `{qty.value}`. */
        const val VALUE = "value"
        /** The most values a feed holds: each driver's script carries them all (1,000 ids are 5 kB of Lua). */
        const val MAX_ROWS = 100_000
        private val NAME = Regex("[A-Za-z0-9_]+")
        private val JSON = JsonMapper.builder().build()
    }
}

/** A feed file read into columns and rows, or the first problem: its 1-based line and what is wrong. */
data class FeedTable(val columns: List<String>, val rows: List<List<String>>, val problem: Pair<Int, String>? = null)

/** Reads feed files: CSV (RFC 4180: a header row, quoted fields with `""`), and JSON lines. Pure. */
object FeedFiles {
    fun csv(text: String): FeedTable {
        val records = records(text)
        val header = records.firstOrNull() ?: return FeedTable(emptyList(), emptyList(), 1 to "is empty: the first row names the columns")
        val columns = header.second.map { it.trim() }
        columns.withIndex().firstOrNull { !Regex("[A-Za-z0-9_-]+").matches(it.value) }?.let { (i, c) ->
            return FeedTable(columns, emptyList(), header.first to "column ${i + 1} of the header row is '$c': name each column with letters, digits, '_' or '-'")
        }
        val rows = mutableListOf<List<String>>()
        for ((line, fields) in records.drop(1)) {
            if (fields.size == 1 && fields[0].isEmpty()) continue
            if (fields.size != columns.size) return FeedTable(columns, rows, line to "has ${fields.size} fields, the header row ${columns.size} (${columns.joinToString()})")
            rows += fields
        }
        return FeedTable(columns, rows)
    }

    fun jsonLines(text: String, json: JsonMapper): FeedTable {
        var columns: List<String>? = null
        val rows = mutableListOf<List<String>>()
        for ((i, raw) in text.lines().withIndex()) {
            if (raw.isBlank()) continue
            val node = runCatching { json.readTree(raw) }.getOrNull()
            if (node == null || !node.isObject) return FeedTable(columns.orEmpty(), rows, i + 1 to "is not a JSON object")
            val keys = node.properties().map { it.key }
            val cols = columns ?: keys.also { columns = it }
            val missing = cols.filter { !node.has(it) }
            if (missing.isNotEmpty()) return FeedTable(cols, rows, i + 1 to "has no ${missing.joinToString()} (the first line's keys: ${cols.joinToString()})")
            rows += cols.map { k -> node.get(k).let { v -> if (v.isValueNode) v.asString() else v.toString() } }
        }
        return FeedTable(columns.orEmpty(), rows)
    }

    /** Each CSV record with the line it starts on; a quoted field may span lines. */
    private fun records(text: String): List<Pair<Int, List<String>>> {
        val out = mutableListOf<Pair<Int, List<String>>>()
        var line = 1
        var start = 1
        val fields = mutableListOf<String>()
        val field = StringBuilder()
        var quoted = false
        var i = 0
        fun endRecord() {
            fields += field.toString(); field.clear()
            out += start to fields.toList(); fields.clear()
        }
        while (i < text.length) {
            val c = text[i]
            when {
                quoted && c == '"' && i + 1 < text.length && text[i + 1] == '"' -> { field.append('"'); i++ }
                c == '"' && (quoted || field.isEmpty()) -> quoted = !quoted
                quoted -> { if (c == '\n') line++; field.append(c) }
                c == ',' -> { fields += field.toString(); field.clear() }
                c == '\r' -> {}
                c == '\n' -> { endRecord(); line++; start = line }
                else -> field.append(c)
            }
            i++
        }
        if (field.isNotEmpty() || fields.isNotEmpty()) endRecord()
        return out
    }
}
