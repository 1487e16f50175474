package stackbench.runner.findings

import stackbench.runner.decide.Figure
import stackbench.runner.plan.Cell
import stackbench.runner.results.CellResult
import stackbench.runner.stats.ClaimVerdict
import stackbench.runner.stats.Decisions
import stackbench.runner.stats.RatioDecision
import stackbench.runner.stats.Relation
import java.time.LocalDate
import java.util.Locale

/**
 * What docs/findings.md compares: each [Comparison] sets figures an article published beside the same
 * figures from the lab's runs, row by row, as ratios (the hardware differs, so ratios carry over and
 * absolute figures mostly do not). Read from docs/claims.yaml by [ClaimsParser].
 */
data class Claims(val comparisons: List<Comparison>, val claims: List<Claim> = emptyList(), val articles: List<Article> = emptyList())

/**
 * An article, for the line that opens docs/findings.md: what it [said] and what a reader should do ([advice]), both in
 * our words; what the lab measured between them is computed from its claims' verdicts ([VerdictText.articles]).
 */
data class Article(val name: String, val said: String, val advice: String)

/**
 * One line of the "Verdicts at a glance" table: a claim an article made (in our words), tested by the rows
 * of one or more comparisons that name it (`claim-id`). Its verdict is computed from those rows alone.
 */
data class Claim(
    /** Names its place in docs/findings.md, `<!-- verdict:ID -->`, and the rows that test it. */
    val id: String,
    /** Which article, e.g. `blocking I/O (2024)`. */
    val article: String,
    /** The claim, in our words. */
    val text: String,
    /**
     * The day the claim was written into claims.yaml, where it came after the runs then published (`fixed:`): a row of a
     * run that began before that day cannot tell until its run is made again, so no claim is tested on data seen
     * before it was written; null: written with the runs that first tested it.
     */
    val fixed: java.time.LocalDate? = null,
)

/** What a row claims about its ratio, where the published figures do not say it (or say something else). */
enum class Expectation(val id: String, val relation: Relation?) {
    HIGHER("higher", Relation.HIGHER),
    LOWER("lower", Relation.LOWER),
    SAME("same", Relation.SAME),

    /** The row is shown but claims nothing: no verdict. */
    NONE("none", null);

    companion object {
        fun of(id: String): Expectation? = entries.firstOrNull { it.id == id }
    }
}

/**
 * The cells of one run that one side of a row stands for: an app configuration (its name in the suite) and
 * a request, optionally at one load level; their repetitions make one figure.
 */
data class Selector(
    /** The run's folder name under the runs folder (e.g. `cpu-bound`). */
    val run: String,
    val app: String,
    /** The request as the results record it, e.g. `/cpu/direct?limit=10000`. */
    val request: String,
    /** `GET` or `POST`; null: any (only /todo has both). */
    val method: String? = null,
    val connections: Int? = null,
    val rate: Double? = null,
) {
    /** A measured cell this side stands for (`findings` reads its figures). */
    fun matches(c: CellResult): Boolean = matches(c.app.name, c.endpoint.path, c.endpoint.method, c.load.connections, c.load.rate)

    /** A planned cell this side stands for (`findings-run` plans it); the same test as for a measured one. */
    fun matches(c: Cell): Boolean = matches(c.app.name, c.endpoint.path, c.endpoint.method, c.load.shape.connections, c.load.shape.rate)

    private fun matches(app: String, path: String, method: String, connections: Int, rate: Double?): Boolean =
        app == this.app && path == request && (this.method == null || method == this.method) &&
            (this.connections == null || connections == this.connections) && (this.rate == null || rate == this.rate)

    fun describe(): String = "$run: $app ${method?.let { "$it " } ?: ""}$request" +
        (connections?.let { " at $it connections" } ?: "") + (rate?.let { " at $it req/s" } ?: "")
}

/**
 * An article's claim of a size ("roughly doubles", "cuts it below half"): a ÷ b lies [above] or below [bound], tested one-sided
 * against the bound, beside the row's relation at the ±10 % band: it holds when the row's whole interval lies on the claimed
 * side of the bound, differs when wholly on the other, and cannot tell when the interval holds the bound. Written in
 * docs/claims.yaml as `size: {above: 1.5, fixed: 2026-11-23}`: [fixed] is the day the size entered the file, so that a reader
 * sees whether it was chosen before the runs it is tested on.
 */
data class Size(val bound: Double, val above: Boolean, val fixed: LocalDate) {
    init {
        require(bound > 0) { "a size is a ratio above 0, not $bound" }
    }

    /** Whether a published ratio lies on the claimed side of the bound (the rows a size applies to). */
    fun covers(ratio: Double): Boolean = if (above) ratio > bound else ratio < bound

    /** The one-sided test: the interval wholly on the claimed side holds, wholly on the other differs. */
    fun verdict(d: RatioDecision?): ClaimVerdict {
        val low = d?.low
        val high = d?.high
        return when {
            low == null || high == null -> ClaimVerdict.CANNOT_TELL
            if (above) low > bound else high < bound -> ClaimVerdict.HOLDS
            if (above) high < bound else low > bound -> ClaimVerdict.DIFFERS
            else -> ClaimVerdict.CANNOT_TELL
        }
    }

    /** `above 1.50×`, `below 0.50×`. */
    val text: String get() = "${if (above) "above" else "below"} ${"%.2f×".format(Locale.ROOT, bound)}"
}

/** One line of a comparison: side A, optionally side B, and what the article published for each (null: nothing). */
data class Row(
    val label: String,
    val a: Selector,
    val b: Selector?,
    val publishedA: Double?,
    val publishedB: Double?,
    /** A published ratio A ÷ B given on its own (the article gave only the relation); else A ÷ B of the figures. */
    val publishedRatio: Double?,
    /** The claimed relation given in claims.yaml (`claim:`); null: what the published figures say. */
    val claim: Expectation? = null,
    /** The [Claim] this row tests; null: none (the row still gets its own verdict in its table). */
    val claimId: String? = null,
    /** The row's name in a sentence, e.g. `limit 50000` (its [label] with the sweep's key when the label is a bare value). */
    val name: String = label,
    /** The article's size this row claims beside its relation ([Size]); null: the relation alone. */
    val size: Size? = null,
) {
    val published: Double? get() = publishedRatio ?: if (publishedA != null && publishedB != null && publishedB != 0.0) publishedA / publishedB else null

    /**
     * The relation this row claims for a ÷ b (or, without a side b, for measured ÷ published) at [threshold]:
     * the one given with `claim:`; else, with a side b, the published ratio's; else, beside a published
     * absolute figure, that the measured figure is the same within the threshold. Null: the row claims nothing.
     */
    fun claimed(threshold: Double): Relation? = when {
        claim != null -> claim.relation
        b != null -> published?.let { Decisions.claimed(it, threshold) }
        else -> if (publishedA != null) Relation.SAME else null
    }
}

/** How a side's repetitions become one figure. */
enum class Summary(val id: String) {
    /** The median, with a 95 % bootstrap interval from three repetitions on. */
    MEDIAN("median"),
    /** The mean and standard deviation (as startup tables are published). */
    MEAN("mean"),
}

data class Comparison(
    /** Names the table's place in docs/findings.md: `<!-- table:ID -->`. */
    val id: String,
    val title: String,
    val figure: Figure,
    val summary: Summary,
    /** The header of the rows' first column, e.g. `limit`. */
    val rowHeader: String,
    val aName: String,
    val bName: String?,
    val rows: List<Row>,
    /** Further figures shown for each side, e.g. the cgroup's throttling. */
    val show: List<Figure>,
    /** The practical threshold its verdicts use: a ratio within 1 ± threshold is "the same"; at most [MAX_BAND]. */
    val threshold: Double = Decisions.THRESHOLD,
    /** Its rows decided paired by round (`paired: true`, [Decisions.paired]), as a suite comparison with `paired: true`. */
    val paired: Boolean = false,
    /** The article's claim of a size (`size:`), on the rows whose published ratio lies on its side ([Row.size]). */
    val size: Size? = null,
)

/** The widest band "the same" may have: ±10 %. A claim of a larger effect is a [Size]. */
const val MAX_BAND = 0.10
