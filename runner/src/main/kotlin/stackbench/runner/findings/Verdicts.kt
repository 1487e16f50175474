package stackbench.runner.findings

import stackbench.runner.decide.Engine
import stackbench.runner.decide.Figure
import stackbench.runner.results.CellResult
import stackbench.runner.results.CellStatus
import stackbench.runner.results.Flags
import stackbench.runner.results.Processes
import stackbench.runner.results.RunResult
import stackbench.runner.stats.BandDecision
import stackbench.runner.stats.ClaimVerdict
import stackbench.runner.stats.Decisions
import stackbench.runner.stats.Look
import stackbench.runner.stats.PairedRatio
import stackbench.runner.stats.RatioDecision
import stackbench.runner.stats.Relation
import stackbench.runner.stats.Statistics
import java.util.Locale

/**
 * The verdicts of docs/findings.md, computed: for each row of each comparison, the relation it claims
 * against the one its repetitions decide ([Decisions]); for each [Claim], a summary of its rows. A cell with a
 * disqualifying flag is left out and named, as comparisons leave it out ([stackbench.runner.decide.SuiteDecisions]):
 * a row decides only from unflagged repetitions, at least [Statistics.MIN_FOR_INTERVAL] a side, so no verdict rests
 * on a flagged window and `--until-decided` rounds that replaced one count.
 */
class Verdicts(private val runs: Map<String, RunResult>, private val declared: Claims? = null) {

    /** Every claimed row of [declared]'s claims, settled by Holm's step-down within its claim's family ([family]). */
    private val settled: Map<Pair<String, Int>, RowVerdict> by lazy {
        val all = declared ?: return@lazy emptyMap()
        all.comparisons.flatMap { c -> c.rows.mapIndexedNotNull { i, r -> if (r.claimId != null && r.claimed(c.threshold) != null) Triple(c, i, r) else null } }
            .groupBy { it.third.claimId!! }.values
            .flatMap { members -> family(members.map { (c, i, _) -> c to i }).entries }
            .associate { it.key to it.value }
    }

    /**
     * Holm's step-down over one claim's rows (its family): with r rows not yet settled, each is decided at the look's α ÷ r;
     * the rows that decide settle there, and the rest are decided again at α ÷ (r − settled); when none decides, the rest
     * settle as they read. So the chance that any verdict of the family is false stays within the look's α (Holm 1979),
     * however many rows the claim has.
     */
    private fun family(members: List<Pair<Comparison, Int>>): Map<Pair<String, Int>, RowVerdict> {
        val out = LinkedHashMap<Pair<String, Int>, RowVerdict>()
        // a row without an interval (too few processes, no value) tests nothing at any level: it is no member of the family.
        // Whether a row has one depends on how many processes it kept, never on what they measured
        val alone = members.associateWith { (c, i) -> row(c, c.rows[i], 1, 1) }
        val untested = alone.filterValues { it.decision?.low == null || it.decision.high == null }.keys
        var open = members.filter { it !in untested }
        untested.forEach { k -> out[k.first.id to k.second] = alone.getValue(k).copy(family = open.size) }
        val size = open.size
        while (open.isNotEmpty()) {
            val at = open.associateWith { (c, i) -> row(c, c.rows[i], open.size, size) }
            val decided = at.filterValues { it.decided }
            val settle = if (decided.isEmpty()) at else decided
            settle.forEach { (k, v) -> out[k.first.id to k.second] = v }
            if (decided.isEmpty()) break
            open = open.filter { it !in decided.keys }
        }
        return out
    }

    fun row(c: Comparison, row: Row): RowVerdict =
        settled[c.id to c.rows.indexOf(row)]?.takeIf { it.row == row } ?: row(c, row, share = 1, family = 1)

    private fun row(c: Comparison, row: Row, share: Int, family: Int): RowVerdict {
        val claimed = row.claimed(c.threshold)
        val a = ok(row.a)
        val b = row.b?.let { ok(it) }
        val countedA = a.filter { unflagged(it, c.figure) }
        val countedB = b?.filter { cell -> unflagged(cell, c.figure) }
        val va = values(countedA, c.figure)
        val vb = countedB?.let { values(it, c.figure) }
        val flags = bySides(disqualifying(a, c.aName, c.figure) + b?.let { disqualifying(it, c.bName ?: "B", c.figure) }.orEmpty())
        val engine = if (vb != null && va.isNotEmpty() && vb.isNotEmpty()) byProcess(countedA, countedB!!, c, row, share) else null
        val appState = bySides(appState(countedA, c.aName, c.figure) + countedB?.let { appState(it, c.bName ?: "B", c.figure) }.orEmpty())
        val decision = when {
            vb != null -> engine?.ratio
            row.publishedA != null -> if (va.isEmpty()) null else againstPublished(va, row.publishedA, c.threshold)
            else -> null
        }
        val sizeVerdict = row.size?.let { s -> s.verdict(decision) }
        val began = listOfNotNull(row.a.run, row.b?.run).mapNotNull { runs[it]?.run?.startedAt?.take(10)?.let { d -> runCatching { java.time.LocalDate.parse(d) }.getOrNull() } }
        // a claim written after the run began is not tested on it: the run's re-run decides it
        val writtenAfter = declared?.claims?.firstOrNull { it.id == row.claimId }?.fixed?.takeIf { day -> began.any { day.isAfter(it) } }
        val verdict = claimed?.let { claim ->
            if (writtenAfter != null) ClaimVerdict.CANNOT_TELL else both(decision?.let { Decisions.verdict(claim, it) } ?: ClaimVerdict.CANNOT_TELL, sizeVerdict)
        }
        val reps = if (vb != null) minOf(va.size, vb.size) else va.size
        // a run of one JVM a configuration, from before the process was the unit: only a re-run can decide it. A row
        // outside every claim is not re-run for its own sake (its run claims nothing): it says one process
        val notRerun = verdict == ClaimVerdict.CANNOT_TELL && row.claimId != null && decision?.let(::oneProcess) == true &&
            !(a + b.orEmpty()).all { Processes.recorded(it) }
        val why = if (verdict != ClaimVerdict.CANNOT_TELL) ""
            else if (writtenAfter != null) "the claim was written ($writtenAfter) after its run began (${began.min()}): its re-run decides it"
            else why(row, decision, flags, reps, notRerun, sizeVerdict, engine?.steady)
        val waived = (waived(a, c.aName, c.figure) + b?.let { waived(it, c.bName ?: "B", c.figure) }.orEmpty())
            .groupBy({ it.first }, { it.second }).map { (flag, sides) -> Waived(flag.first, flag.second, sides.distinct()) }
        val sizeAfterRun = row.size != null && began.any { row.size.fixed.isAfter(it) }
        return RowVerdict(c, row, claimed, decision, flags, verdict, why, reps, waived, notRerun, sizeVerdict, share, family, sizeAfterRun, appState, engine?.steady)
    }

    /** The rows of [c], each as its claim's family settled it (rows outside every claim: on their own). */
    fun rows(c: Comparison): List<RowVerdict> = c.rows.map { row(c, it) }

    /** Every declared claim with the rows (of every comparison) that test it, in the order claims.yaml declares them. */
    fun claims(claims: Claims): List<ClaimResult> {
        if (claims !== declared) return Verdicts(runs, claims).claims(claims)
        val tested = claims.comparisons.flatMap { c -> c.rows.filter { it.claimId != null }.map { row(c, it) } }.filter { it.claimed != null }
        return claims.claims.map { claim ->
            val rows = tested.filter { it.row.claimId == claim.id }
            ClaimResult(claim, rows, claimVerdict(rows))
        }
    }

    /**
     * a ÷ b as suite comparisons decide it: by the one engine ([Engine]: the counting rule, the process as the unit,
     * paired within shared JVMs, `paired: true` by round), at the look the run's own decision of these two configurations
     * recorded (`findings-run --until-decided`), else one look at 95 %.
     */
    private fun byProcess(a: List<CellResult>, b: List<CellResult>, c: Comparison, row: Row, share: Int): Engine.Decision {
        val aKeys = a.map { it.configKey }.toSet()
        val bKeys = b.map { it.configKey }.toSet()
        val recorded = runs[row.a.run]?.decisions.orEmpty().firstOrNull { d -> d.a in aKeys && d.b in bKeys && d.decision.look != null && d.decision.maxLooks != null }
        val unscheduled = if (recorded == null) unscheduledLook(runs[row.a.run], a + b) else null
        val look = (recorded?.let { Look(it.decision.look!!, it.decision.maxLooks!!) } ?: unscheduled ?: Look.SINGLE).shared(share)
        // rows over two runs: no process of one run is the other's, whatever their names
        fun ofRun(cells: List<CellResult>, run: String?) = if (row.b?.run == row.a.run) cells else cells.map { it.copy(appStartedBy = "$run:${it.appStartedBy ?: it.key}") }
        val d = Engine.decide(ofRun(a, row.a.run), ofRun(b, row.b?.run), c.figure, c.threshold, look, c.paired)
        return if (unscheduled == null) d else Engine.Decision(d.ratio.copy(why = "${d.ratio.why}; $UNSCHEDULED"), d.a, d.b, d.sharedProcesses, d.jvms, d.steady, d.appState)
    }

    private fun ok(s: Selector): List<CellResult> = runs[s.run]?.cells.orEmpty().filter { it.status == CellStatus.OK && s.matches(it) }

    private fun values(cells: List<CellResult>, figure: Figure) = cells.mapNotNull(figure.value).filter { !it.isNaN() }

    private fun disqualifying(cells: List<CellResult>, side: String, figure: Figure): List<Pair<String, String>> =
        cells.flatMap { figure.leftOutBy(it) }.map { it.code }.distinct().map { it to side }

    /** (flag code, side) pairs as `code: side and side`, each code once. */
    private fun bySides(pairs: List<Pair<String, String>>): List<String> =
        pairs.groupBy({ it.first }, { it.second }).map { (code, sides) -> "$code: ${sides.distinct().joinToString(" and ")}" }

    private fun appState(cells: List<CellResult>, side: String, figure: Figure): List<Pair<String, String>> =
        cells.flatMap { figure.appStateOf(it) }.map { it.code }.distinct().map { it to side }

    private fun waived(cells: List<CellResult>, side: String, figure: Figure): List<Pair<Pair<String, String>, String>> =
        cells.filter { unflagged(it, figure) }.flatMap { Flags.waived(it, figure.waiver) }.map { (f, why) -> f.code to why }.distinct().map { it to side }

    /** Why a side of [row] has no cell at all: its run is not published, or has no such cell (a row written before its re-run). */
    private fun unmeasured(row: Row): List<String> = listOfNotNull(row.a, row.b).mapNotNull { s ->
        val run = runs[s.run]
        when {
            run == null -> "docs/runs/${s.run} is not published"
            run.cells.none { s.matches(it) } -> "docs/runs/${s.run} has no cell of ${s.app} ${s.request}" + (s.connections?.let { " at $it connections" } ?: "")
            else -> null
        }
    }.distinct()

    /** Fewer than 2 processes on a side of a decision over processes: no interval. */
    private fun oneProcess(d: RatioDecision) = d.processesA != null && d.processesB != null && minOf(d.processesA, d.processesB) < 2

    private fun why(row: Row, d: RatioDecision?, flags: List<String>, reps: Int, notRerun: Boolean, size: ClaimVerdict?, steady: RatioDecision?): String {
        val parts = mutableListOf<String>()
        val missing = if (d == null) unmeasured(row) else emptyList()
        when {
            // over every process the interval decided, and without the app's flagged windows it decided another relation
            d != null && !d.decided && steady != null && steady.decided && d.low != null && d.high != null &&
                (d.low > 1 + d.threshold || d.high < 1 - d.threshold || (d.low >= 1 - d.threshold && d.high <= 1 + d.threshold)) ->
                parts += "the app's flagged windows decide it: ${interval(d)} over every process, ${steady.relation.text.substringBefore(" within")} ${interval(steady)} without them"
            // the relation decided and held; the size's one-sided test did not decide
            d != null && d.decided && size == ClaimVerdict.CANNOT_TELL && row.size != null ->
                parts += "${interval(d)} ${d.relation.text.substringBefore(" within")}, but across the bound of the claimed size (${row.size.text})"
            d == null && row.b == null && row.publishedA == null -> parts += "no published figure"
            d == null && flags.isNotEmpty() -> return "every repetition flagged " + flags.joinToString("; ")
            // a row fixed in claims.yaml before the run that measures it: it waits for that run
            missing.isNotEmpty() -> parts += "not run yet (" + missing.joinToString("; ") + ")"
            d == null -> parts += "no measured value"
            oneProcess(d) -> parts += processes(minOf(d.processesA!!, d.processesB!!)).let { if (notRerun) "${Processes.NOT_RERUN} ($it a side)" else it }
            reps < Statistics.MIN_FOR_INTERVAL && d.processesA == null -> parts += repetitions(reps)
            !d.decided -> parts += if (d.low != null && d.high != null) "${interval(d)} ${if (d.low > 1 + d.threshold || d.high < 1 - d.threshold) "clear of the band, but p = ${p(d.pValue)}" else "crosses an edge of the band"}" else d.why
        }
        if (flags.isNotEmpty()) parts += "left out, flagged " + flags.joinToString("; ")
        return parts.joinToString("; ")
    }

    companion object {
        /** Why a row of a run that repeated rounds before looks were recorded is decided at look k of k. */
        const val UNSCHEDULED = "the run repeated rounds before looks were recorded, so it is scored as having looked at every round it ran"

        /**
         * The look a row of [run] is scored at when the run repeated cells past its plan (`--until-decided`) but recorded
         * no look: it looked once a round, so at look k of k, k the rounds [cells] ran (the highest repetition less the
         * planned ones, plus the planned look); null when the run kept to its plan or recorded its looks.
         */
        fun unscheduledLook(run: RunResult?, cells: List<CellResult>): Look? {
            if (run == null || run.run.plannedCells <= 0 || run.cells.size <= run.run.plannedCells) return null
            if (run.decisions.any { it.decision.look != null }) return null
            val rounds = (cells.maxOfOrNull { it.repetition } ?: return null) - run.run.repetitions + 1
            return if (rounds >= 2) Look(rounds, rounds) else null
        }

        /**
         * A row's verdict from its relation's and its size's ([Size.verdict]): differs when either differs, holds when the
         * relation holds and the size (if claimed) holds too, else cannot tell.
         */
        fun both(relation: ClaimVerdict, size: ClaimVerdict?): ClaimVerdict = when {
            relation == ClaimVerdict.DIFFERS || size == ClaimVerdict.DIFFERS -> ClaimVerdict.DIFFERS
            relation == ClaimVerdict.HOLDS && (size == null || size == ClaimVerdict.HOLDS) -> ClaimVerdict.HOLDS
            else -> ClaimVerdict.CANNOT_TELL
        }

        /** Whether a verdict on [figure] counts [cell]: nothing leaves it out ([Figure.leftOutBy]). The tables read the same cells. */
        fun unflagged(cell: CellResult, figure: Figure): Boolean = figure.leftOutBy(cell).isEmpty()

        /**
         * A claim's verdict from its rows' verdicts, so that no row is hidden:
         * - **differs** when any decided row differs (one contradicting row is enough to say the claim, as
         *   stated, does not carry over: the basis names the rows it holds in);
         * - **holds** when at least one row decided and every decided row holds;
         * - **cannot tell** when no row decided.
         * The basis always counts the rows: "holds in 3 of 7 rows; 4 cannot tell".
         */
        fun summarise(verdicts: List<ClaimVerdict>): ClaimVerdict = when {
            verdicts.any { it == ClaimVerdict.DIFFERS } -> ClaimVerdict.DIFFERS
            verdicts.any { it == ClaimVerdict.HOLDS } -> ClaimVerdict.HOLDS
            else -> ClaimVerdict.CANNOT_TELL
        }

        /**
         * A claim's verdict from its rows, part by part: a claim that asserts several figures ("more load, with
         * steadier throughput": throughput and its per-second variation) holds only when each figure holds in some
         * row; one that no row decides leaves the whole claim *cannot tell*, since half a claim is not the claim.
         * (docs/methodology.md says what the rule before it did). A claim over one figure reads as [summarise] reads its rows.
         */
        fun claimVerdict(rows: List<RowVerdict>): ClaimVerdict {
            val overall = summarise(rows.map { it.verdict!! })
            return if (overall == ClaimVerdict.HOLDS && figuresWithoutHold(rows).isNotEmpty()) ClaimVerdict.CANNOT_TELL else overall
        }

        fun figuresWithoutHold(rows: List<RowVerdict>): List<Figure> =
            rows.groupBy { it.comparison.figure }.filterValues { part -> part.none { it.verdict == ClaimVerdict.HOLDS } }.keys.toList()

        /**
         * Measured repetitions against a published absolute figure (a constant, with no spread of its own):
         * measured ÷ published as the geometric mean of the repetitions' ratios to it, with the one-sample t interval of
         * their logarithms ([PairedRatio.interval]), placed against the band as every decision is ([BandDecision]):
         * the same when the whole interval lies inside it, higher or lower when wholly beyond it, else undecided.
         */
        fun againstPublished(values: List<Double>, published: Double, threshold: Double = Decisions.THRESHOLD): RatioDecision {
            fun undecided(point: Double?, why: String) = RatioDecision(point, null, null, null, values.size, 0, threshold, Relation.UNDECIDED, why)
            if (values.size < Statistics.MIN_FOR_INTERVAL) return undecided(null, "${values.size} repetition(s); an interval needs ${Statistics.MIN_FOR_INTERVAL}")
            if (!(published > 0)) return undecided(null, "no published figure above 0 to divide by")
            // every repetition measured none of it (no error at all against a published rate of errors): the ratio is 0, with no spread
            if (values.all { it == 0.0 }) return RatioDecision(0.0, 0.0, 0.0, null, values.size, 0, threshold, if (threshold < 1) Relation.LOWER else Relation.UNDECIDED,
                "every repetition measured 0: the ratio is 0, below the band [${f2(1 - threshold)}, ${f2(1 + threshold)}]")
            if (values.any { !(it > 0) }) return undecided(null, "a measured 0 beside values above it has no logarithm: no ratio of geometric means")
            val interval = PairedRatio.interval(values.map { kotlin.math.ln(it / published) })
            val band = BandDecision.decide(interval, threshold)
            return RatioDecision(interval.ratio, interval.low, interval.high, null, values.size, 0, threshold, band.relation, band.why)
        }

        fun processes(n: Int): String = when (n) {
            0 -> "no process"
            1 -> "one process"
            else -> "$n processes"
        }

        fun repetitions(n: Int): String = when (n) {
            0 -> "no repetition"
            1 -> "one repetition"
            else -> "$n repetitions"
        }

        /** `[0.93–1.05]`; bounds beyond 0.01-100 (an interval over two processes at a small share of α) as `<0.01`, `>100`. */
        fun interval(d: RatioDecision): String = if (d.low == null || d.high == null) "" else "[${bound(d.low)}–${bound(d.high)}]"

        private fun bound(x: Double) = when {
            x < 0.01 -> "<0.01"
            x > 100 -> ">100"
            else -> f2(x)
        }

        private fun f2(x: Double) = "%.2f".format(Locale.ROOT, x)
        private fun p(x: Double?) = if (x == null) "–" else "%.3f".format(Locale.ROOT, x)
    }
}
