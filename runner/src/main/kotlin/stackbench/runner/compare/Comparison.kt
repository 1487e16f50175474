package stackbench.runner.compare

import stackbench.runner.results.CellResult
import stackbench.runner.results.CellStatus
import stackbench.runner.results.RunResult
import stackbench.runner.stats.Change
import stackbench.runner.stats.Statistics

/** Something about the machine, software or settings that differs between the two runs. */
data class Difference(val what: String, val a: String, val b: String)

/** One configuration present in both runs: its change from A to B in throughput and p99. */
data class ConfigChange(
    val configKey: String,
    val app: String,
    val endpoint: String,
    val load: String,
    /** Measured repetitions on each side, and how many cells each side has. */
    val measuredA: Int,
    val measuredB: Int,
    val cellsA: Int,
    val cellsB: Int,
    /** Null when a side has no measured repetition. */
    val throughput: Change?,
    val p99: Change?,
    /** "open" or "closed" per side; they should match for p99 to compare like with like. */
    val latencyA: String?,
    val latencyB: String?,
)

/** Two runs side by side: what differs around them, and per matching configuration what changed. */
data class Comparison(
    val a: RunResult,
    val b: RunResult,
    val differences: List<Difference>,
    val changes: List<ConfigChange>,
    val onlyA: List<String>,
    val onlyB: List<String>,
)

object Comparisons {
    /** Cells are matched by configKey; repetitions on each side are pooled. */
    fun of(a: RunResult, b: RunResult): Comparison {
        val byA = a.cells.groupBy { it.configKey }
        val byB = b.cells.groupBy { it.configKey }
        val keys = byA.keys.filter { it in byB }
        val changes = keys.map { k -> change(k, byA.getValue(k), byB.getValue(k)) }
        return Comparison(a, b, differences(a, b, keys.map { byA.getValue(it).first() to byB.getValue(it).first() }), changes,
            byA.keys.filter { it !in byB }, byB.keys.filter { it !in byA })
    }

    private fun measured(cells: List<CellResult>) = cells.filter { it.status == CellStatus.OK && it.measured != null }

    private fun change(key: String, a: List<CellResult>, b: List<CellResult>): ConfigChange {
        val ma = measured(a)
        val mb = measured(b)
        fun figure(f: (CellResult) -> Double?): Change? {
            val va = ma.mapNotNull(f).filter { !it.isNaN() }
            val vb = mb.mapNotNull(f).filter { !it.isNaN() }
            return if (va.isEmpty() || vb.isEmpty()) null else Statistics.change(va, vb)
        }
        fun kind(cells: List<CellResult>) = cells.map { if (it.measured!!.latencyCorrected) "open" else "closed" }.distinct().joinToString("+").ifEmpty { null }
        val first = a.first()
        return ConfigChange(key, first.app.name, first.endpoint.label, first.load.label, ma.size, mb.size, a.size, b.size,
            figure { it.measured?.throughput }, figure { it.measured?.latency?.p99 }, kind(ma), kind(mb))
    }

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
        r.cells.filter { it.info != null }.distinctBy { it.app.name }.associate { c ->
            fun s(k: String) = c.info!!.path(k).asString("")
            c.app.name to "Spring Boot ${s("springBoot")}, Framework ${s("springFramework")}, ${s("server")} ${s("serverVersion")}, JDK ${s("jdk")}"
        }
    }
}
