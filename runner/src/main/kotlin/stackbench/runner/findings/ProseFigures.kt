package stackbench.runner.findings

import stackbench.runner.results.Json
import stackbench.runner.results.RunResult
import tools.jackson.databind.JsonNode
import kotlin.math.abs
import kotlin.math.pow

/**
 * Checks the figures in a findings document's own words (outside the generated markers, code and comments): every
 * number written with a unit of measurement (`req/s`, `ms`, `s`, `%`, `×`, `MiB`, `GiB`, `GB`), each end of a range
 * too, must be a figure of what the section cites, at the precision written:
 * - a figure the runs of its section measured or derived, read from their results for that unit only ([FIELDS]: a
 *   `req/s` is a throughput, a ceiling or a warm-up slice's rate, never a latency), or a setting in their suites;
 * - a number of the section's generated tables and verdicts, or of claims.yaml (the articles' published figures).
 * A section's runs are those its tables name (`docs/runs/NAME`); a section that names none (the method) is checked
 * against every run. A figure that is neither measured nor published says where it comes from in a comment right
 * after it, and is left alone: `<!-- law: ... -->` (arithmetic from a law), `<!-- derived: ... -->` (arithmetic on
 * figures the page shows, e.g. a ratio of two), `<!-- article: ... -->` (an article's words that claims.yaml does
 * not hold) or `<!-- earlier: RUN-ID ... -->` (a figure of a run since replaced, named by its id, whose records are in
 * the repository's history, not in docs/runs); anything else is reported, with its line.
 *
 * What it cannot catch: a figure of one or two digits that happens to equal some other figure of the same unit in the
 * section's runs. What it does catch: a figure no longer in the runs after a re-run, and a mistyped one.
 */
object ProseFigures {
    data class Unchecked(val line: Int, val figure: String, val section: String) {
        override fun toString() = "line $line: \"$figure\" ($section) is not a figure of the section's runs, their suites, its tables or claims.yaml; " +
            "correct it, or say where it comes from: $figure<!-- law|derived|article|earlier: ... -->"
    }

    /** A unit as written, and the scale from a results field to it. */
    private data class Field(val unit: String, val path: List<String>, val scale: Double = 1.0)

    /** Which results fields a figure of each unit may be; per cell unless the path starts at the run. */
    private val FIELDS: List<Field> = buildList {
        fun add(unit: String, path: String, scale: Double = 1.0) = add(Field(unit, path.split('.'), scale))
        add("req/s", "window.measured.throughput"); add("req/s", "ceiling.bound.requestsPerSecond"); add("req/s", "warmup.steps")
        add("req/s", "resources.summary.serverPerSecond"); add("req/s", "window.measured.perSecond.responses")
        for (p in listOf("min", "mean", "p50", "p90", "p99", "p999", "max")) { add("ms", "window.measured.latency.$p"); add("s", "window.measured.latency.$p", 1e-3) }
        for (p in listOf("medianMs", "minMs", "cpuMsPerRequest")) add("ms", "ceiling.idle.$p")
        for (p in listOf("cpuMsPerRequest", "workCpuMsPerRequest", "compilerCpuMs", "compilationMs", "gcMs")) add("ms", "window.jvm.$p")
        for (p in listOf("gcPauseTotalMs", "gcPauseMaxMs", "sampleIntervalMs")) { add("ms", "resources.summary.$p"); add("s", "resources.summary.$p", 1e-3) }
        for (p in listOf("toHealthyMs", "toFirstResponseMs")) { add("ms", "start.startup.$p"); add("s", "start.startup.$p", 1e-3) }
        for (p in listOf("springStartedSeconds", "processRunningSeconds")) add("s", "start.startup.$p")
        for (p in listOf("seconds", "steadyAfterSeconds")) { add("s", "warmup.record.$p"); add("s", "warmup.compileFirst.$p"); add("s", "warmup.again.$p") }
        // the database the lab started, over the window: its queries' own time and its CPU per answer
        for (p in listOf("meanExecMs", "cpuMsPerRequest")) add("ms", "probes.database.figures.$p")
        for (p in listOf("startMs", "warmupMs", "measuredMs", "totalMs")) add("s", "timings.$p", 1e-3)
        add("s", "window.measured.wallSeconds")
        for (p in listOf("cpuShare", "cpuShareMax", "driverCpuShare")) add("%", "resources.summary.$p", 100.0)
        add("%", "ceiling.bound.efficiency", 100.0); add("%", "window.measured.errorRate", 100.0)
        for (p in listOf("resources.summary.rssMaxBytes", "resources.summary.rssMeanBytes", "resources.summary.memoryPeakBytes", "system.info.heapMaxBytes", "profile.heapBytes", "profile.memoryBytes")) {
            add("MiB", p, 1.0 / (1 shl 20)); add("GiB", p, 1.0 / (1 shl 30)); add("GB", p, 1e-9)
        }
    }

    /** The decisions' ratios and intervals (per run, not per cell). */
    private val DECISION_FIELDS = listOf("ratio", "low", "high")

    private val UNIT = "req/s|ms|s|%|×|MiB|GiB|GB"
    private const val NUMBER = """(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?"""
    private val FIGURE = Regex("""(?<![\w.,])$NUMBER(?:\s?[-–]\s?$NUMBER)?\s?($UNIT)(?![\w/])""")
    private const val SOURCE_KINDS = "law|article|derived|earlier"
    /** A source comment; `earlier` must name the replaced run by its id (suite, then its start as 20261125T034724Z). */
    private val SOURCE = Regex("""<!-- (?:(?:law|article|derived): [^>]*|earlier: [A-Za-z0-9_.-]+-\d{8}T\d{6}Z\b[^>]*)-->""")
    /** Inline code (a setting or a command) and any comment that is not a figure's source: not prose. */
    private val NOT_PROSE = Regex("""`[^`]*`|<!--(?! (?:$SOURCE_KINDS):).*?-->""")
    private val RUN = Regex("""docs/runs/([A-Za-z0-9_.-]+)""")
    private val ANY_NUMBER = Regex("""\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?""")
    private val SETTING = Regex("""(\d+(?:\.\d+)?)\s*(ms|s|MiB|GiB|%)\b""")

    private class Section(val title: String) {
        val prose = mutableListOf<Pair<Int, String>>()
        val generated = StringBuilder()
    }

    /** Every prose figure of [doc] that nothing in [runs], [claimsText] or the document's generated text accounts for. */
    fun check(doc: String, runs: Map<String, RunResult>, claimsText: String): List<Unchecked> {
        val published = numbers(claimsText)
        val byRun = runs.mapValues { (_, run) -> known(run) }
        val unchecked = mutableListOf<Unchecked>()
        for (section in sections(doc)) {
            val cited = (RUN.findAll(section.generated).map { it.groupValues[1] } +
                section.prose.flatMap { (_, l) -> RUN.findAll(l).map { it.groupValues[1] } }).filter { it in byRun }.toSet()
            val measured = (cited.ifEmpty { byRun.keys }).map { byRun.getValue(it) }
            val common = published + numbers(section.generated.toString())
            val byUnit = HashMap<String, List<Double>>()
            for ((line, text) in section.prose) {
                val sources = SOURCE.findAll(text).map { it.range }.toList()
                for (m in FIGURE.findAll(text)) {
                    // a figure inside the comment that gives a source, or one that a source follows, is left alone
                    if (sources.any { m.range.first in it || it.first == m.range.last + 1 }) continue
                    val unit = m.groupValues[5]
                    val ends = listOf(m.groupValues[1] to m.groupValues[2], m.groupValues[3] to m.groupValues[4]).filter { it.first.isNotEmpty() }
                    val candidates = byUnit.getOrPut(unit) { common + measured.flatMap { it[unit].orEmpty() } }
                    if (ends.any { (whole, fraction) -> !matches(whole, fraction, candidates) }) unchecked += Unchecked(line, m.value, section.title)
                }
            }
        }
        return unchecked
    }

    /** Whether [whole].[fraction] is one of [candidates] rounded to the written precision. */
    private fun matches(whole: String, fraction: String, candidates: Collection<Double>): Boolean {
        val value = (whole.replace(",", "") + if (fraction.isEmpty()) "" else ".$fraction").toDouble()
        val half = 10.0.pow(-fraction.length) / 2 + 1e-9
        return candidates.any { abs(it - value) <= half }
    }

    /** The figures of one run by unit: its cells' fields ([FIELDS]), its decisions' ratios, its suite's settings. */
    private fun known(run: RunResult): Map<String, List<Double>> {
        val tree: JsonNode = Json.mapper.valueToTree(run)
        val out = HashMap<String, MutableList<Double>>()
        for (cell in tree.path("cells").values()) for (f in FIELDS) {
            leaves(cell, f.path).forEach { out.getOrPut(f.unit) { mutableListOf() } += it * f.scale }
        }
        for (d in tree.path("decisions").values()) for (p in DECISION_FIELDS) d.path("decision").path(p).takeIf { it.isNumber }?.let { out.getOrPut("×") { mutableListOf() } += it.doubleValue() }
        for (m in SETTING.findAll(run.run.suiteText)) {
            val v = m.groupValues[1].toDouble()
            out.getOrPut(m.groupValues[2]) { mutableListOf() } += v
            if (m.groupValues[2] == "s") out.getOrPut("ms") { mutableListOf() } += v * 1000
            if (m.groupValues[2] == "ms") out.getOrPut("s") { mutableListOf() } += v / 1000
        }
        return out
    }

    /** The numbers at [path] below [node], through any arrays on the way (`measured.perSecond.responses`). */
    private fun leaves(node: JsonNode, path: List<String>): List<Double> = when {
        node.isArray -> node.values().flatMap { leaves(it, path) }
        path.isEmpty() -> if (node.isNumber) listOf(node.doubleValue()) else emptyList()
        else -> leaves(node.path(path.first()), path.drop(1))
    }

    private fun numbers(text: CharSequence): List<Double> = ANY_NUMBER.findAll(text).map { it.value.replace(",", "").toDouble() }.toList()

    /**
     * The document cut at its `## ` headings: each section's prose lines (numbered from 1; code and comments blanked)
     * and its generated text.
     */
    private fun sections(doc: String): List<Section> {
        val sections = mutableListOf(Section("the opening"))
        var generated: String? = null
        var fence = false
        doc.lines().forEachIndexed { i, line ->
            if (line.startsWith("## ")) sections += Section(line.removePrefix("## ").trim())
            val section = sections.last()
            if (line.trimStart().startsWith("```")) { fence = !fence; return@forEachIndexed }
            if (fence) return@forEachIndexed
            val prose = StringBuilder()
            var rest = line
            while (rest.isNotEmpty()) {
                val key = generated
                if (key != null) {
                    val close = rest.indexOf("<!-- /$key -->")
                    if (close < 0) { section.generated.append(rest).append('\n'); rest = "" } else {
                        section.generated.append(rest, 0, close).append('\n')
                        rest = rest.substring(close + "<!-- /$key -->".length)
                        generated = null
                    }
                } else {
                    val open = FindingsDoc.OPEN.find(rest)
                    if (open == null) { prose.append(rest); rest = "" } else {
                        prose.append(rest, 0, open.range.first)
                        generated = open.groupValues[1]
                        rest = rest.substring(open.range.last + 1)
                    }
                }
            }
            val text = prose.toString().replace(NOT_PROSE, " ")
            if (text.isNotBlank()) section.prose += (i + 1) to text
        }
        return sections
    }
}
