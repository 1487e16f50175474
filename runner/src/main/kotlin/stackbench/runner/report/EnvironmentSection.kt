package stackbench.runner.report

import stackbench.runner.results.Format
import stackbench.runner.results.RunResult
import stackbench.runner.results.Sittings

/** The run and the machine it measured on, as key–value tables; every value escaped. */
object EnvironmentSection {
    private fun e(s: String?) = Html.text(s)

    fun render(result: RunResult): String {
        val run = result.run
        val env = result.environment
        val cells = result.cells
        val runRows = listOf(
            "suite" to "${e(run.suite)} <small>${e(run.suiteFile)}</small>",
            "run id" to e(run.id),
            "status" to e(run.status.name.lowercase()) + (run.note?.let { " — ${e(it)}" } ?: ""),
            "started, finished" to "${e(Format.instant(run.startedAt))} → ${e(run.finishedAt?.let(Format::instant) ?: "not finished")}",
            "cells" to "${CellCount.of(result)}; ${run.repetitions} repetition(s) of each",
            "scale" to e(Format.plain(run.scale)) + if (run.scale != 1.0) " (warm-up and measured durations scaled)" else "",
            "command" to "<code>${e(run.command.joinToString(" "))}</code>",
        ) + Sittings.of(result).takeIf { it.size > 1 }?.let { ss ->
            // a resumed run: each sitting's start, host and tree (the machine below is the last sitting's)
            listOf("sittings" to ss.joinToString("<br>") { s ->
                "${e(Format.instant(s.startedAt))}: ${e(s.hostname)} <small>${e(s.cpuModel)}</small> at ${e(s.gitCommit?.take(10) ?: "no commit")}" +
                    if (s.gitDirty == true) " <span class=\"flag\">uncommitted changes</span>" else ""
            })
        }.orEmpty()
        val machine = listOf(
            "host" to e(env.hostname),
            "OS, kernel" to "${e(env.os)}<small>kernel ${e(env.kernel)}</small>",
            "CPU" to "${e(env.cpuModel)}<small>${env.logicalCpus} logical, ${env.physicalCpus} physical</small>",
            "memory" to Format.gib(env.memoryBytes),
            "runner JDK" to e(env.runnerJdk),
            "app JDK" to e(env.appJdk) + if (result.cells.any { it.system.runtime?.requested != null }) " <small>for the apps that name no <code>jdk:</code>; each app's below</small>" else "",
            "load drivers" to env.drivers.entries.joinToString("<br>") { "${e(it.key)}: ${e(it.value)}" }.ifEmpty { "–" },
            "isolation" to e(env.isolation),
            "hosts" to env.hosts.joinToString("<br>") { h ->
                "${e(h.name)}: ${e(h.kind)} at ${e(h.address)} runs ${e(h.roles.joinToString())}" +
                    (h.rttMs?.let { " · round trip +${Format.plain(it)} ms by ${e(h.rttMethod)}" } ?: "") +
                    (h.rateBitsPerSecond?.let { " · ${Format.plain(it / 1e6)} Mbit/s" } ?: "") + (h.detail?.let { " <small>${e(it)}</small>" } ?: "")
            }.ifEmpty { "every role on this machine" },
            "git commit" to (env.gitCommit?.let { e(it) + if (env.gitDirty == true) " <span class=\"flag\">uncommitted changes</span>" else "" } ?: "unknown"),
        )
        val profiles = cells.map { it.profile }.distinct().map { p ->
            "CPU ${e(p.cpuLimit)}${p.cpus?.let { " ${Format.plain(it)} CPU" } ?: ""}${if (p.cpuset.isNotEmpty()) ", app on CPUs ${p.cpuset.joinToString(",")}" else ""}" +
                ", memory ${p.memoryBytes?.let(Format::mib) ?: "unlimited"}, heap ${p.heapBytes?.let(Format::mib) ?: "JVM default"}" +
                ", ActiveProcessorCount ${p.activeProcessorCount}, isolation ${e(p.isolation)}" +
                (if (p.driverCpus.isNotEmpty()) ", load generator on CPUs ${p.driverCpus.joinToString(",")}" else "") +
                (if (p.sharesCpusWithDriver) " <span class=\"flag\">shares CPUs with the load generator</span>" else "")
        }
        return "<h3>Run</h3>" + kv(runRows) +
            "<h3>Machine and software</h3>" + kv(machine + ("app container" to profiles.joinToString("<br>").ifEmpty { "–" })) +
            versions(result) +
            "<details><summary>the suite file as run</summary><pre>${e(run.suiteText)}</pre></details>"
    }

    /**
     * App versions: the environment's record, else each app's own /info answer in its cells; and each app's runtime as
     * its JVM reported it (`runtime`), where an app names its `jdk:` or the JVM named itself.
     */
    private fun versions(result: RunResult): String {
        val runtimes = result.cells.mapNotNull { c -> c.system.runtime?.let { c.app.name to it } }.distinctBy { it.first }.toMap()
        val rows = if (result.environment.apps.isNotEmpty() && runtimes.values.none { it.requested != null }) {
            result.environment.apps.map { (label, v) -> listOf(label, v.springBoot, v.springFramework, "${v.server} ${v.serverVersion}", v.jdk) }
        } else {
            result.cells.filter { it.system.info != null || it.system.runtime != null }.distinctBy { it.app.name }.map { c ->
                fun s(k: String) = c.system.info?.path(k)?.asString("")?.ifEmpty { null } ?: "–"
                listOf(c.app.name, s("springBoot"), s("springFramework"), "${s("server")} ${s("serverVersion")}", runtimes[c.app.name]?.let(::runtime) ?: s("jdk"))
            }
        }
        if (rows.isEmpty()) return ""
        val head = listOf("app", "Spring Boot", "Spring Framework", "server", "JDK")
        return "<h3>App versions</h3><div class=\"scroll\"><table><thead><tr>" + head.joinToString("") { "<th>$it</th>" } + "</tr></thead><tbody>" +
            rows.joinToString("") { r -> "<tr>" + r.joinToString("") { "<td>${e(it)}</td>" } + "</tr>" } + "</tbody></table></div>"
    }

    /** `17.0.17+10-Debian-1 (Debian), jdk: 17 from /usr/lib/jvm, GC Copy:MSC`. */
    private fun runtime(r: stackbench.runner.results.RuntimeRecord): String =
        listOfNotNull(
            (r.version ?: "unknown") + (r.vendor?.let { " ($it)" } ?: ""),
            r.requested?.let { "jdk: $it" + (r.foundBy?.let { by -> " from $by" } ?: "") },
            r.gc?.let { "GC $it" },
        ).joinToString(", ")

    private fun kv(rows: List<Pair<String, String>>) =
        "<table class=\"kv\"><tbody>" + rows.joinToString("") { (k, v) -> "<tr><th>${e(k)}</th><td>$v</td></tr>" } + "</tbody></table>"
}
