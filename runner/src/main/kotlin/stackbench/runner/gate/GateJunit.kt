package stackbench.runner.gate

/**
 * The gate's outcome as a JUnit XML report, which every CI shows: one test case per configuration, a failure for a
 * slower one, skipped for one that cannot be told; runs that cannot be compared are one test case that errs. Pure.
 */
object GateJunit {
    fun render(g: GateResult): String = buildString {
        val suite = "stackbench gate: ${g.current.run.suite}"
        val className = "stackbench.gate.${g.current.run.suite}"
        val refused = g.outcome == GateOutcome.CANNOT_COMPARE && g.cells.isEmpty()
        val errors = if (g.outcome == GateOutcome.CANNOT_COMPARE) 1 else 0
        val tests = g.cells.size + errors
        // undecided configurations are skipped, or failures when the team asked each to be decided
        val undecidedFails = g.outcome == GateOutcome.UNDECIDED
        val failures = g.cells.count { it.verdict == GateVerdict.SLOWER || undecidedFails && it.verdict == GateVerdict.UNDECIDED }
        val skipped = if (undecidedFails) 0 else g.cells.count { it.verdict == GateVerdict.UNDECIDED }
        appendLine("""<?xml version="1.0" encoding="UTF-8"?>""")
        appendLine("""<testsuite name="${x(suite)}" tests="$tests" failures="$failures" errors="$errors" skipped="$skipped" time="0">""")
        appendLine("""  <properties><property name="baseline" value="${x(g.baseline.run.id)}"/><property name="current" value="${x(g.current.run.id)}"/>""" +
            """<property name="threshold" value="${x(Gate.pct(g.threshold))}"/></properties>""")
        if (refused) {
            appendLine("""  <testcase classname="${x(className)}" name="the runs can be compared" time="0"><error message="${x(g.reason)}"/></testcase>""")
        }
        for (c in g.cells) {
            val body = when (c.verdict) {
                GateVerdict.SLOWER -> """<failure message="${x("slower beyond ±${Gate.pct(g.threshold)}")}">${x(c.why)}</failure>"""
                GateVerdict.UNDECIDED -> if (undecidedFails) """<failure message="${x("cannot tell, and --fail-on-undecided asks each configuration to be decided")}">${x(c.why)}</failure>"""
                    else """<skipped message="${x("cannot tell: ${c.why}")}"/>"""
                else -> """<system-out>${x("${c.verdict.text}: ${c.why}")}</system-out>"""
            }
            appendLine("""  <testcase classname="${x(className)}" name="${x(c.configKey)}" time="0">$body</testcase>""")
        }
        if (g.outcome == GateOutcome.CANNOT_COMPARE && !refused) {
            appendLine("""  <testcase classname="${x(className)}" name="the runs can be compared" time="0"><error message="${x(g.reason)}"/></testcase>""")
        }
        appendLine("</testsuite>")
    }

    /** XML text and attribute escaping; characters XML 1.0 cannot hold are dropped. */
    private fun x(s: String): String = buildString {
        for (ch in s) when {
            ch == '&' -> append("&amp;")
            ch == '<' -> append("&lt;")
            ch == '>' -> append("&gt;")
            ch == '"' -> append("&quot;")
            ch == '\'' -> append("&apos;")
            ch == '\n' -> append("&#10;")
            ch == '\t' || ch == '\r' || ch >= ' ' -> append(ch)
        }
    }
}
