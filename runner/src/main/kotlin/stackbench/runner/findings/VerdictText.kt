package stackbench.runner.findings

import stackbench.runner.report.MarkdownSummary.md
import stackbench.runner.results.Processes
import stackbench.runner.stats.ClaimVerdict
import stackbench.runner.stats.Relation
import stackbench.runner.stats.Statistics
import java.util.Locale

/**
 * The words docs/findings.md gives a computed verdict: a table row's claim and verdict cells, a claim's
 * `**Verdict: ...**` sentence, and the "Verdicts at a glance" table. Every word here comes from [Verdicts].
 */
object VerdictText {

    /** The claim column's header: the relation a ÷ b must stand in, against the comparison's band. */
    fun claimHeader(c: Comparison) = "claim (±${percent(c.threshold)})"

    fun claimCell(v: RowVerdict): String = when (v.claimed) {
        null -> "–"
        Relation.HIGHER -> "higher"
        Relation.LOWER -> "lower"
        Relation.SAME -> "same"
        Relation.UNDECIDED -> "–"
    } + (v.row.size?.takeIf { v.claimed != null }?.let { ", ${it.text}" } ?: "")

    /** `holds [0.93–0.95]`, `cannot tell: one repetition`, or `–` for a row that claims nothing. */
    fun verdictCell(v: RowVerdict): String = when (v.verdict) {
        null -> "–"
        ClaimVerdict.CANNOT_TELL -> "cannot tell: ${v.why}"
        else -> "${v.verdict.text} ${v.decision?.let { Verdicts.interval(it) }.orEmpty()}".trim()
    }

    /** The row's name in a sentence; in a claim over several comparisons, which one first (its sides, or its figure where they are the same). */
    private fun name(v: RowVerdict, among: List<Comparison>): String {
        val c = v.comparison
        if (among.size < 2) return md(v.row.name)
        val sides = among.map { it.aName to it.bName }.distinct().size > 1
        val figures = among.map { it.figure }.distinct().size > 1
        val what = listOfNotNull(
            if (sides) (if (c.bName != null) "${c.aName} ÷ ${c.bName}" else c.aName) else null,
            if (figures) c.figure.header else null,
        ).joinToString(", ")
        return md(if (what.isEmpty()) v.row.name else "$what, ${v.row.name}")
    }

    private fun ratio(v: RowVerdict): String {
        val d = v.decision ?: return ""
        return ClaimTables.ratio(d.ratio) + (Verdicts.interval(d).takeIf { it.isNotEmpty() }?.let { " $it" } ?: "")
    }

    private fun relation(r: Relation?): String = when (r) {
        Relation.HIGHER -> "higher"
        Relation.LOWER -> "lower"
        Relation.SAME -> "the same"
        else -> "undecided"
    }

    /** Counts of the rows' verdicts, e.g. `differs in 1 of 6 rows, holds in 3; 2 cannot tell`. */
    fun counts(r: ClaimResult): String {
        val n = r.rows.size
        val holds = r.count(ClaimVerdict.HOLDS)
        val differs = r.count(ClaimVerdict.DIFFERS)
        val cannot = r.count(ClaimVerdict.CANNOT_TELL)
        val rows = if (n == 1) "row" else "rows"
        return when (r.verdict) {
            ClaimVerdict.CANNOT_TELL -> if (holds > 0) {
                // a claim over several figures that holds in some but not in every one (Verdicts.claimVerdict)
                val open = r.figuresWithoutHold
                "holds in $holds of $n $rows, but no row of ${open.joinToString(" or ") { it.id }} decided, and the claim asserts " +
                    "${if (open.size == 1) "it" else "them"} too ($cannot cannot tell: ${reasons(r.rows)})"
            } else (if (n == 1) "its one row did not decide" else "none of its $n rows decided") + " (${reasons(r.rows)})"
            ClaimVerdict.DIFFERS -> "differs in $differs of $n $rows" + (if (holds > 0) ", holds in $holds" else "") + (if (cannot > 0) "; $cannot cannot tell" else "")
            ClaimVerdict.HOLDS -> "holds in $holds of $n $rows" + (if (cannot > 0) "; $cannot cannot tell" else "")
        }
    }

    /** Why the rows that cannot tell do not, counted: `4 on one repetition, 2 with every repetition flagged unsteady`. */
    private fun reasons(rows: List<RowVerdict>): String {
        val undecided = rows.filter { it.verdict == ClaimVerdict.CANNOT_TELL && !it.notRerun }
        val parts = mutableListOf<String>()
        rows.count { it.verdict == ClaimVerdict.CANNOT_TELL && it.notRerun }.takeIf { it > 0 }?.let { parts += "$it ${Processes.NOT_RERUN}" }
        undecided.filter { it.decision != null && it.repetitions < Statistics.MIN_FOR_INTERVAL }.groupBy { it.repetitions }.toSortedMap().forEach { (reps, rs) ->
            parts += "${rs.size} on ${Verdicts.repetitions(reps)}"
        }
        undecided.count { it.decision == null && it.flags.isEmpty() }.takeIf { it > 0 }?.let { parts += "$it without a measured value" }
        val flagged = undecided.filter { it.decision == null && it.flags.isNotEmpty() }
        if (flagged.isNotEmpty()) {
            val codes = flagged.flatMap { v -> v.flags.map { it.substringBefore(":") } }.distinct()
            parts += "${flagged.size} with every repetition flagged ${codes.joinToString(", ")}"
        }
        undecided.count { it.decision != null && it.repetitions >= Statistics.MIN_FOR_INTERVAL && !it.decision.decided }
            .takeIf { it > 0 }?.let { parts += "$it with an interval that does not decide" }
        return parts.joinToString(", ")
    }

    /** The `**Verdict: ...**` sentence of a claim: the word, the rows that decided it, and why the others did not. */
    fun sentence(r: ClaimResult): String {
        val multi = r.rows.map { it.comparison }.distinct()
        val out = StringBuilder("**Verdict: ${r.verdict.text}.** ")
        out.append(counts(r).replaceFirstChar { it.uppercase() }).append('.')
        val differs = r.rows.filter { it.verdict == ClaimVerdict.DIFFERS }
        if (differs.isNotEmpty()) {
            out.append(" Differs: ").append(differs.joinToString("; ") { v ->
                val size = v.row.size
                if (size != null && v.sizeVerdict == ClaimVerdict.DIFFERS)
                    "${name(v, multi)} ${ratio(v)} (claimed ${relation(v.claimed)} and ${size.text}, measured wholly ${if (size.above) "below" else "above"} ${size.text.substringAfter(' ')})"
                else "${name(v, multi)} ${ratio(v)} (claimed ${relation(v.claimed)}${size?.let { " and ${it.text}" } ?: ""}, measured ${relation(v.decision?.relation)})"
            }).append('.')
        }
        val holds = r.rows.filter { it.verdict == ClaimVerdict.HOLDS }
        if (holds.isNotEmpty()) out.append(" Holds: ").append(holds.joinToString("; ") { v -> "${name(v, multi)} ${ratio(v)}" }).append('.')
        val interval = r.rows.filter { it.verdict == ClaimVerdict.CANNOT_TELL && it.repetitions >= Statistics.MIN_FOR_INTERVAL && it.decision?.low != null }
        if (interval.isNotEmpty()) {
            out.append(" Undecided by their intervals: ").append(interval.joinToString("; ") { v ->
                "${name(v, multi)} ${ratio(v)}, " + when {
                    v.decision!!.decided && v.sizeVerdict == ClaimVerdict.CANNOT_TELL -> "${relation(v.decision.relation)}, but across the claimed size (${v.row.size!!.text})"
                    v.decision.low!! > 1 + v.decision.threshold || v.decision.high!! < 1 - v.decision.threshold -> "clear of the band but not the rank test"
                    else -> "across an edge of the band"
                }
            }).append('.')
        }
        val flagged = r.rows.filter { it.verdict == ClaimVerdict.CANNOT_TELL && it.flags.isNotEmpty() }
        if (flagged.isNotEmpty()) {
            out.append(" Flagged repetitions left out: ").append(flagged.joinToString("; ") { v ->
                "${name(v, multi)} (${safe(v.flags.joinToString("; "))})"
            }).append('.')
        }
        val appState = r.rows.filter { it.appState.isNotEmpty() }
        if (appState.isNotEmpty()) {
            out.append(" Counted with flags about the app itself, and read again without them: ").append(appState.joinToString("; ") { v ->
                "${name(v, multi)} (${safe(v.appState.joinToString("; "))}; without them ${v.steady?.let { "${relation(it.relation)} ${Verdicts.interval(it)}".trim() } ?: "no reading"})"
            }).append('.')
        }
        waived(r.rows.filter { it.decided }.flatMap { it.waived }).forEach { out.append(' ').append(safe(it)).append('.') }
        out.append(' ').append(basis(r)).append('.')
        return out.toString()
    }

    /**
     * The flags counted in, one sentence per reason: `Counted in despite their flags, as a counted run of 200 requests: ...
     * few-round-trips (virtual threads and platform threads), no-steady-state (platform threads)`.
     */
    private fun waived(all: List<Waived>): List<String> =
        all.groupBy { it.why }.map { (why, ws) ->
            val flags = ws.groupBy { it.code }.map { (code, w) -> "$code (${w.flatMap { it.sides }.distinct().joinToString(" and ")})" }
            "Counted in despite ${if (flags.size == 1) "a flag" else "their flags"}, as ${why}: ${flags.joinToString(", ")}"
        }

    /** What the rows claim (the relation and its band) and how many processes (or, against a published figure, repetitions) they rest on. */
    private fun basis(r: ClaimResult): String {
        val groups = r.rows.groupBy { listOf(it.claimed, it.comparison.threshold, it.row.b == null, it.row.size) }
        val claimed = groups.entries.joinToString("; ") { (k, rs) ->
            val rel = k[0] as Relation?
            val t = k[1] as Double
            val of = if (k[2] as Boolean) "measured ÷ published" else "a ÷ b"
            val size = k[3] as Size?
            val what = when (rel) {
                Relation.HIGHER -> "higher ($of above ${x(1 + t)})"
                Relation.LOWER -> "lower ($of below ${x(1 - t)})"
                else -> "the same ($of within ${x(1 - t)}–${x(1 + t)})"
            } + (size?.let { " and ${it.text}, one-sided (the article's size, fixed ${it.fixed})" } ?: "")
            what + if (groups.size == 1) (if (rs.size == 1) "" else " in every row") else " in ${rs.size} ${if (rs.size == 1) "row" else "rows"}"
        } + holm(r) + (r.rows.firstOrNull { it.sizeAfterRun }?.let { "; the size was written after the run it is tested on began, so a re-run tests it as fixed before" } ?: "")
        // rows against a second side are decided over app processes (Decisions.processes); against a published figure, over repetitions
        val processes = r.rows.mapNotNull { v -> v.decision?.takeIf { v.row.b != null }?.let { d -> if (d.processesA != null && d.processesB != null) minOf(d.processesA, d.processesB) else null } }
        if (processes.isNotEmpty() && r.rows.all { it.row.b != null }) {
            val n = if (processes.min() == processes.max()) "${processes.min()}" else "${processes.min()}-${processes.max()}"
            if (r.rows.all { it.comparison.paired }) return "Claimed: $claimed; paired over $n ${if (processes.max() == 1) "round" else "rounds"} " +
                "(process k of one side against process k of the other, each its windows' mean)"
            return "Claimed: $claimed; geometric means over $n app ${if (processes.max() == 1) "process" else "processes"} a side (each process its windows' mean)"
        }
        val reps = r.rows.map { it.repetitions }
        val repText = when {
            reps.isEmpty() -> "no repetitions"
            reps.min() == reps.max() -> Verdicts.repetitions(reps.min())
            else -> "${reps.min()}-${reps.max()} repetitions"
        } + if (r.rows.all { it.row.b == null }) " each" else " a side"
        return "Claimed: $claimed; medians over $repText"
    }

    /**
     * How many of the page's verdicts may be false by chance: each claim's family held to 5 % by Holm's step-down, so at most
     * 5 % of the decided claims are expected to be false; the rows outside every claim decided each at 5 % on its own.
     */
    fun multiplicity(results: List<ClaimResult>, alone: List<RowVerdict>): String {
        val decided = results.filter { it.verdict != ClaimVerdict.CANNOT_TELL }
        val rows = results.flatMap { it.rows }
        val largest = results.maxByOrNull { r -> r.rows.maxOfOrNull { it.family } ?: 0 }
        val aloneDecided = alone.count { it.decided }
        fun expected(n: Int) = "%.1f".format(Locale.ROOT, n * 0.05)
        return "Of the ${results.size} claims, ${decided.size} decided (${decided.count { it.verdict == ClaimVerdict.HOLDS }} hold, " +
            "${decided.count { it.verdict == ClaimVerdict.DIFFERS }} differ), over ${rows.size} rows. Each claim's rows are one family " +
            "of the rows that have an interval (the largest, ${largest?.claim?.id}, has ${largest?.rows?.maxOfOrNull { it.family } ?: 0}; a row without one tests nothing): " +
            "Holm's step-down decides a row at 5 % ÷ the rows of its family not yet " +
            "settled, so the chance that any verdict of a claim is false stays within 5 %, and of the ${decided.size} decided claims at most " +
            "${expected(decided.size)} are expected to be false by chance. The ${alone.size} rows outside every claim (the tables' other rows) " +
            "are decided each on its own at 5 %: " + (if (aloneDecided == 0) "none of them decided. " else "of their $aloneDecided decided rows, up to ${expected(aloneDecided)} may be false by chance. ") +
            "Both figures hold as far as each interval is honest at its level (docs/methodology.md, \"The engine's known truth at the band's edges\")."
    }

    /** How the claim's rows share the 5 % of a false verdict, when there are several (Holm's step-down, [Verdicts]). */
    private fun holm(r: ClaimResult): String {
        val n = r.rows.maxOfOrNull { it.family } ?: 1
        return if (n < 2) "" else "; the $n of its rows with an interval held together to 5 % of any false verdict (Holm's step-down: a row decides at 5 % ÷ the rows not yet settled)"
    }

    private fun ClaimVerdict.id() = when (this) {
        ClaimVerdict.HOLDS -> "hold"
        ClaimVerdict.DIFFERS -> "differ"
        ClaimVerdict.CANNOT_TELL -> "not tell"
    }

    private fun x(v: Double) = "%.2f×".format(Locale.ROOT, v)

    /** The "Verdicts at a glance" table: one row per claim, in claims.yaml's order. */
    fun glance(results: List<ClaimResult>): String = buildString {
        appendLine("| article | claim | verdict |")
        appendLine("|---|---|---|")
        results.forEach { r ->
            appendLine("| ${cell(r.claim.article)} | ${cell(r.claim.text)} | **${r.verdict.text}**: ${counts(r)} |")
        }
    }.trimEnd()

    /**
     * One line per article: what it said (our words), what the lab measured (its claims' verdicts, on the hardware and
     * JDK of the runs they read), and what to do (our words). E.g. "**CPU-bound (2024)** said … → measured on 2 vCPUs
     * (AMD EPYC …), Temurin 25: 3 of its 11 claims hold, 6 differ, 2 cannot tell → …".
     */
    fun articles(articles: List<Article>, results: List<ClaimResult>, runs: Map<String, stackbench.runner.results.RunResult>): String =
        articles.joinToString("\n") { a ->
            val mine = results.filter { it.claim.article == a.name }
            val readRuns = mine.flatMap { r -> r.rows.flatMap { listOfNotNull(it.row.a.run, it.row.b?.run) } }.distinct().mapNotNull { runs[it] }
            val read = readRuns.map { it.environment }
            val cpus = read.map { it.logicalCpus }.distinct().joinToString(" or ")
            val models = read.map { it.cpuModel.trim() }.distinct().joinToString("; ")
            val jdks = readRuns.flatMap(::appJdks).distinct().joinToString(", ")
            val on = if (read.isEmpty()) "" else " on $cpus vCPUs ($models), $jdks"
            val counts = ClaimVerdict.entries.mapNotNull { v -> mine.count { it.verdict == v }.takeIf { it > 0 }?.let { n -> "$n ${verb(v, n)}" } }
            "- **${cell(a.name)}** said ${cell(a.said)} → measured$on: of its ${mine.size} claim${if (mine.size == 1) "" else "s"}, " +
                "${counts.joinToString(", ")} → ${cell(a.advice)}"
        }

    /**
     * The JDKs [run]'s apps ran on: what each cell's JVM reported (`runtime`, e.g. `17.0.15+6-Debian-1deb12u1` as
     * `JDK 17.0.15`), oldest first, where its cells name one with `jdk:`; else the run's app JDK.
     */
    private fun appJdks(run: stackbench.runner.results.RunResult): List<String> {
        val named = run.cells.mapNotNull { it.system.runtime }.takeIf { rs -> rs.any { it.requested != null } }
        return named?.sortedBy { it.feature ?: 0 }?.mapNotNull { it.version?.substringBefore('+')?.let { v -> "JDK $v" } }?.distinct()
            ?: listOf(run.environment.appJdk.takeIf { '"' in it }?.let { "JDK ${stackbench.runner.results.RunProvenance.jdkVersion(it)}" } ?: run.environment.appJdk)
    }

    private fun verb(v: ClaimVerdict, n: Int) = when (v) {
        ClaimVerdict.HOLDS -> if (n == 1) "holds" else "hold"
        ClaimVerdict.DIFFERS -> if (n == 1) "differs" else "differ"
        ClaimVerdict.CANNOT_TELL -> "cannot tell"
    }

    /** Text for a table cell or a sentence that keeps brackets and dashes but cannot break the table or open markup. */
    fun safe(s: String): String = buildString {
        for (ch in s) when (ch) {
            '|' -> append("\\|")
            '<' -> append("&lt;")
            '>' -> append("&gt;")
            '&' -> append("&amp;")
            '*', '_', '`' -> append('\\').append(ch)
            '\n', '\r' -> append(' ')
            else -> append(ch)
        }
    }

    /** Our own Markdown (claims.yaml's words), kept as written but for what would break a table row. */
    private fun cell(s: String) = s.replace("|", "\\|").replace('\n', ' ')

    private fun percent(t: Double): String {
        val p = t * 100
        return if (p == Math.rint(p)) "%.0f %%".format(Locale.ROOT, p) else "%.1f %%".format(Locale.ROOT, p)
    }
}
