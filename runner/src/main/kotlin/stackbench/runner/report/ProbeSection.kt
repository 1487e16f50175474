package stackbench.runner.report

import stackbench.runner.results.RunResult

/**
 * The report section of a measurement probe's records (`probes.<name>` in results.json), from results.json alone. Each
 * is an object in this package; report.html and summary.md show every one there is ([ALL]: the implementations the
 * compiler permits this sealed interface, read from its class file), after the cells and before the environment, so a
 * new probe's section is its own file and nothing else.
 */
internal sealed interface ProbeSection {
    /** Its anchor in report.html. */
    val id: String

    /** Its entry in report.html's table of contents. */
    val title: String

    /** Where it sits among the probe sections, smallest first. */
    val order: Int

    /** Whether the run has anything for it to show; a section without shows nowhere. */
    fun any(result: RunResult): Boolean

    /** `<section id="[id]">…</section>`, or "" when it has nothing to show. */
    fun html(result: RunResult, e: (String?) -> String): String

    /** Its part of summary.md, or "" when it has nothing to show. */
    fun markdown(result: RunResult, md: (String?) -> String): String

    companion object {
        /** Every section, each an object, in [order]. */
        val ALL: List<ProbeSection> by lazy {
            ProbeSection::class.java.permittedSubclasses.map { it.getField("INSTANCE").get(null) as ProbeSection }.sortedBy { it.order }
        }
    }
}
