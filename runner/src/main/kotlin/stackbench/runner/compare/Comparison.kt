package stackbench.runner.compare

import stackbench.runner.report.SideBySide
import stackbench.runner.decide.Counting
import stackbench.runner.decide.Figure
import stackbench.runner.decide.RunPairs
import stackbench.runner.results.CellResult
import stackbench.runner.results.CellStatus
import stackbench.runner.results.DecisionRecord
import stackbench.runner.results.RunResult
import stackbench.runner.results.Settlings
import stackbench.runner.stats.Decisions
import stackbench.runner.stats.Estimate
import stackbench.runner.stats.Statistics

/** Something about the machine, software or settings that differs between the two runs. */
data class Difference(val what: String, val a: String, val b: String)

/**
 * One configuration present in both runs: B ÷ A of throughput and of p99, each decided by the engine over app processes
 * ([RunPairs], as `gate` decides), and each side's windows that count for it described (median and range).
 */
data class ConfigChange(
    val configKey: String,
    val app: String,
    val endpoint: String,
    val load: String,
    /** Windows on each side, and how many cells each side has. */
    val measuredA: Int,
    val measuredB: Int,
    val cellsA: Int,
    val cellsB: Int,
    val throughput: DecisionRecord,
    val p99: DecisionRecord,
    /** The counted windows of each side ([Counting]), described; null when a side counted none. */
    val throughputA: Estimate?,
    val throughputB: Estimate?,
    val p99A: Estimate?,
    val p99B: Estimate?,
    /** "open" or "closed" per side; they should match for p99 to compare like with like. */
    val latencyA: String?,
    val latencyB: String?,
    /** How each side's processes went over their warm-ups ([Settlings.perProcess]); null when none is classed. */
    val warmupA: String? = null,
    val warmupB: String? = null,
    /** What each side whose processes fall says of it ([Settlings.fallingNote]); null when none falls. */
    val fallingA: String? = null,
    val fallingB: String? = null,
    /** Requests per CPU-second of the app on each side's counted windows ([Figure.PER_CPU_SECOND]), described; null without. */
    val perCpuA: Estimate? = null,
    val perCpuB: Estimate? = null,
    /** The limits that bound each side's windows ([SideBySide.binds]): a pool or connection cap, not the stack, set that side's rate. */
    val bindsA: List<String> = emptyList(),
    val bindsB: List<String> = emptyList(),
)

/** Two runs side by side: what differs around them, and per matching configuration what changed. */
data class Comparison(
    val a: RunResult,
    val b: RunResult,
    val differences: List<Difference>,
    val changes: List<ConfigChange>,
    val onlyA: List<String>,
    val onlyB: List<String>,
    /** The band the decisions were placed against, ±[threshold]. */
    val threshold: Double,
)

object Comparisons {
    /** Cells are matched by configKey; each configuration is decided over its app processes, as the gate decides it ([RunPairs]). */
    fun of(a: RunResult, b: RunResult, threshold: Double = Decisions.THRESHOLD): Comparison {
        val byA = a.cells.groupBy { it.configKey }
        val byB = b.cells.groupBy { it.configKey }
        val keys = byA.keys.filter { it in byB }
        val changes = keys.map { k -> change(a, b, k, byA.getValue(k), byB.getValue(k), threshold) }
        return Comparison(a, b, differences(a, b, keys.map { byA.getValue(it).first() to byB.getValue(it).first() }), changes,
            byA.keys.filter { it !in byB }, byB.keys.filter { it !in byA }, threshold)
    }

    private fun change(runA: RunResult, runB: RunResult, key: String, a: List<CellResult>, b: List<CellResult>, threshold: Double): ConfigChange {
        val (throughput, p99) = RunPairs.decide(runA, runB, key, listOf(Figure.THROUGHPUT.id, Figure.P99.id), threshold)
        fun described(cells: List<CellResult>, f: Figure) =
            cells.filter { Counting.counts(it, f) }.mapNotNull { Counting.value(it, f) }.takeIf { it.isNotEmpty() }?.let { Statistics.estimate(it) }
        fun kind(cells: List<CellResult>) = cells.mapNotNull { it.window.measured }.map { if (it.latencyCorrected) "open" else "closed" }.distinct().joinToString("+").ifEmpty { null }
        val first = a.first()
        return ConfigChange(key, first.app.name, first.endpoint.label, first.load.label, a.count { it.window.measured != null }, b.count { it.window.measured != null }, a.size, b.size,
            throughput, p99, described(a, Figure.THROUGHPUT), described(b, Figure.THROUGHPUT), described(a, Figure.P99), described(b, Figure.P99), kind(a), kind(b),
            Settlings.perProcess(ok(a)), Settlings.perProcess(ok(b)), Settlings.fallingNote(ok(a)), Settlings.fallingNote(ok(b)),
            described(a, Figure.PER_CPU_SECOND), described(b, Figure.PER_CPU_SECOND), SideBySide.binds(a), SideBySide.binds(b))
    }

    private fun ok(cells: List<CellResult>) = cells.filter { it.status == CellStatus.OK }

    private fun differences(a: RunResult, b: RunResult, pairs: List<Pair<CellResult, CellResult>>): List<Difference> {
        val ea = a.environment
        val eb = b.environment
        val facts = listOf<Triple<String, String?, String?>>(
            Triple("runner JDK", ea.runnerJdk, eb.runnerJdk),
            Triple("app JDK", ea.appJdk, eb.appJdk),
            Triple("kernel", ea.kernel, eb.kernel),
            Triple("OS", ea.os, eb.os),
            Triple("CPU model", ea.cpuModel, eb.cpuModel),
            Triple("CPUs (logical/physical)", "${ea.logicalCpus}/${ea.physicalCpus}", "${eb.logicalCpus}/${eb.physicalCpus}"),
            Triple("memory", "${ea.memoryBytes / 1048576} MiB", "${eb.memoryBytes / 1048576} MiB"),
            Triple("isolation", ea.isolation, eb.isolation),
            Triple("host", ea.hostname, eb.hostname),
            Triple("git commit", ea.gitCommit?.plus(if (ea.gitDirty == true) " (uncommitted changes)" else ""), eb.gitCommit?.plus(if (eb.gitDirty == true) " (uncommitted changes)" else "")),
            Triple("scale", a.run.scale.toString(), b.run.scale.toString()),
        ) + (ea.drivers.keys + eb.drivers.keys).distinct().map { Triple("driver $it", ea.drivers[it], eb.drivers[it]) } +
            versions(a, b)
        val settings = pairs.flatMap { (ca, cb) ->
            listOfNotNull(
                Triple("app container of ${ca.app.name}", ca.profile.toString(), cb.profile.toString()).takeIf { ca.profile != cb.profile },
                Triple("load of ${ca.configKey}", ca.load.copy(label = "").toString(), cb.load.copy(label = "").toString()).takeIf { ca.load.copy(label = "") != cb.load.copy(label = "") },
                Triple("app settings of ${ca.app.name}", settings(ca), settings(cb)).takeIf { settings(ca) != settings(cb) },
            )
        }.distinct()
        return (facts + settings).filter { it.second != it.third }.map { Difference(it.first, it.second ?: "unknown", it.third ?: "unknown") }
    }

    private fun settings(c: CellResult) = "stack ${c.app.stack} ${c.app.boot}, virtual threads ${c.app.virtualThreads}, properties ${c.app.properties}, " +
        "system properties ${c.app.systemProperties}, JVM args ${c.app.jvmArgs}"

    /** Spring Boot, Framework and server versions per app: the environment's record, else the apps' own /info. */
    private fun versions(a: RunResult, b: RunResult): List<Triple<String, String?, String?>> {
        val va = appVersions(a)
        val vb = appVersions(b)
        return (va.keys + vb.keys).distinct().filter { it in va && it in vb }.map { Triple("versions of $it", va[it], vb[it]) }
    }

    private fun appVersions(r: RunResult): Map<String, String> = r.environment.apps.mapValues { (_, v) ->
        "Spring Boot ${v.springBoot}, Framework ${v.springFramework}, ${v.server} ${v.serverVersion}, JDK ${v.jdk}"
    }.ifEmpty {
        r.cells.filter { it.system.info != null }.distinctBy { it.app.name }.associate { c ->
            fun s(k: String) = c.system.info!!.path(k).asString("")
            c.app.name to "Spring Boot ${s("springBoot")}, Framework ${s("springFramework")}, ${s("server")} ${s("serverVersion")}, JDK ${s("jdk")}"
        }
    }
}
