package stackbench.runner.suite

import stackbench.runner.yaml.Problems
import stackbench.runner.yaml.Units
import stackbench.runner.yaml.YamlMap

/**
 * A comparison a suite asks to decide: configuration [a] against [b] (each `app/endpoint/load`, as a cell's
 * configuration key reads, e.g. `tomcat-virtual/io-blocking-delay200/c400`), the ratio a ÷ b of their [figure]
 * (geometric means over app processes), decided against [threshold] (stats/Decisions). [line] and [column] point at the entry,
 * so the plan can name it when a key matches no cell.
 */
data class SuiteComparison(
    val name: String,
    val a: String,
    val b: String,
    val threshold: Double,
    val line: Int = 0,
    val column: Int = 0,
    /**
     * What is compared, a figure id of docs/claims.yaml (`throughput`, `p99`, `cpu`, `startup`...; decide/Figure):
     * a suite's `compare:` entry names it with `figure:` (default throughput); `findings-run` compares each row's own.
     */
    val figure: String = THROUGHPUT,
    /**
     * Decided paired by round (`paired: true`; [stackbench.runner.stats.Decisions.paired]): process k of a against
     * process k of b, which ran minutes apart, so that drift on the machine between rounds cancels. Chosen before the run.
     */
    val paired: Boolean = false,
    /**
     * One named request of the compared cells (`request: read`): the figure is read from that request's own figures
     * ([stackbench.runner.results.NamedRequests]); null: the cells' whole load, every request together.
     */
    val request: String? = null,
) {
    companion object {
        const val THROUGHPUT = "throughput"

        /** The figures a comparison of one named request may read: those a named request has of its own. */
        val REQUEST_FIGURES = listOf("throughput", "mean", "p50", "p90", "p99", "errors")

        /**
         * The figure ids a suite may compare: those of decide/Figure, which reads them (the suite package cannot
         * depend on findings, which depends on it; `SuiteDecisionsTest` keeps the two lists equal).
         */
        val FIGURES = listOf(
            "throughput", "server-throughput", "mean", "p50", "p90", "p99", "errors", "cpu", "cpu-max", "startup", "throttled",
            "throttled-ms", "involuntary-cs", "voluntary-cs", "threads", "ceiling", "efficiency", "idle-ms", "stability", "warmup-stability",
            "per-cpu-second", "per-mib",
        )
    }
}

/** Reads a suite's `compare:` list. */
internal object CompareReader {
    fun read(root: YamlMap, problems: Problems): List<SuiteComparison> {
        val maps = root.maps("compare") ?: return emptyList()
        return maps.mapNotNull { m ->
            val a = m.requiredString("a", "a configuration as app/endpoint/load, e.g. tomcat-virtual/io-blocking-delay200/c400 (./stackbench plan lists them)")
            val b = m.requiredString("b", "the configuration a is compared against, as app/endpoint/load")
            val name = m.string("name")
            val figureNode = m.scalar("figure")
            val figure = figureNode?.value?.let { id ->
                if (id !in SuiteComparison.FIGURES) {
                    problems.at(figureNode, m.qualify("figure"), "'$id' is not a figure",
                        "one of: ${SuiteComparison.FIGURES.joinToString()} (a fixed-rate comparison of cost reads cpu)")
                    null
                } else id
            } ?: SuiteComparison.THROUGHPUT
            val thresholdNode = m.scalar("threshold")
            var threshold = stackbench.runner.stats.Decisions.THRESHOLD
            if (thresholdNode != null) {
                val p = Units.percent(thresholdNode.value)
                if (p == null || p < 1 || p > 50) {
                    problems.at(thresholdNode, m.qualify("threshold"), "'${thresholdNode.value}' is not a threshold in 1%..50%",
                        "the smallest difference that matters, e.g. 10%: a ratio inside ±threshold counts as the same")
                } else threshold = p / 100
            }
            val paired = m.boolean("paired") ?: false
            val request = request(m, figure, problems)
            m.finish()
            if (a == null || b == null) return@mapNotNull null
            if (a == b) problems.at(m.valueNode("b"), m.qualify("b"), "compares '$a' with itself")
            val mark = m.node.startMark.orElse(null)
            SuiteComparison(name ?: ("$a vs $b" + (request?.let { " ($it)" } ?: "")), a, b, threshold, (mark?.line ?: 0) + 1, (mark?.column ?: 0) + 1, figure, paired, request)
        }
    }

    /** `request:` (one named request of the compared cells), which reads only a figure a request has of its own. */
    private fun request(m: YamlMap, figure: String, problems: Problems): String? {
        val node = m.scalar("request") ?: return null
        val name = node.value.trim()
        if (name.isEmpty()) {
            problems.at(node, m.qualify("request"), "is empty", "the name of one request of the compared cells, e.g. request: read")
            return null
        }
        if (figure !in SuiteComparison.REQUEST_FIGURES) {
            problems.at(node, m.qualify("request"), "a named request has no figure '$figure' of its own",
                "compare one of ${SuiteComparison.REQUEST_FIGURES.joinToString()} with request:, or leave request: out to compare the cells' $figure")
            return null
        }
        return name
    }
}
