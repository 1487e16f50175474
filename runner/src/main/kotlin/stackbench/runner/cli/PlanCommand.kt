package stackbench.runner.cli

import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.Context
import com.github.ajalt.clikt.parameters.arguments.argument
import com.github.ajalt.clikt.parameters.arguments.optional
import com.github.ajalt.clikt.parameters.options.default
import com.github.ajalt.clikt.parameters.options.option
import com.github.ajalt.clikt.parameters.options.split
import com.github.ajalt.clikt.parameters.types.choice
import stackbench.runner.env.EnvironmentProbe
import stackbench.runner.host.Placement
import stackbench.runner.plan.Planner
import stackbench.runner.cell.ConsoleProgress
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.Ranges
import stackbench.runner.suite.SuiteParser
import stackbench.runner.sut.AppCommand
import stackbench.runner.sut.AppPorts
import stackbench.runner.yaml.Units
import java.nio.file.Files

class PlanCommand : CliktCommand(name = "plan") {
    override fun help(context: Context) = "Prints the cells a suite expands to, with their resolved settings and the estimated duration, without running anything."

    private val suiteArg by argument("SUITE", help = "a suite name in suites/ or a path").optional()
    private val scale by option("--scale", help = "as for run").number(Ranges.SCALE_MIN, Ranges.SCALE_MAX).default(1.0)
    private val repetitions by option("--repetitions", help = "as for run").wholeNumber(Ranges.REPETITIONS)
    private val apps by option("--apps", metavar = "NAME,...", help = "as for run").split(",")
    private val processes by option("--processes", help = "as for run").wholeNumber(Ranges.PROCESSES)
    private val restart by option("--restart", help = "as for run").choice(*stackbench.runner.suite.Restart.entries.map { it.id }.toTypedArray())
    private val history by option("--history", metavar = "URL", help = "the history to estimate the processes each comparison needs from " +
        "(default: \$${stackbench.runner.history.HistoryLocation.ENVIRONMENT}, else results/${stackbench.runner.history.HistoryLocation.DEFAULT_FILE})")
    private val untilDecided by option("--until-decided", metavar = "BUDGET", help = "as for run: prints the looks a run with this budget would take")
        .duration(Ranges.UNTIL_DECIDED_MIN, Ranges.UNTIL_DECIDED_MAX)

    override fun run() {
        val path = Home.suite(suiteArg ?: "quick")
        val cpus = EnvironmentProbe.machineCpus()
        val suite = SuiteParser(MachineFacts(cpus), Home.path).read(path, Home.shown(path)).withRestart(restart)
            .let { try { it.withApps(apps) } catch (e: IllegalArgumentException) { throw BadInput("--apps: ${e.message}") } }
        if (untilDecided != null && suite.comparisons.isEmpty()) throw RunCommand.noComparisons(suite)
        val plan = Planner.plan(suite, scale, repetitions, processes)
        val profile = suite.profile
        val placement = Placement.of(profile, cpus)
        println("suite ${suite.name}: ${suite.description}".trimEnd(' ', ':'))
        println("profile: ${profile.mode.description}; cpus ${profile.cpus ?: "unlimited"}${if (profile.cpuset.isEmpty()) "" else ", pinned to ${profile.cpuset}"}, " +
            "memory ${profile.memoryBytes?.let(Units::formatSize) ?: "unlimited"}, heap ${profile.heapPercent}% -> ${profile.heapBytes()?.let { "${it shr 20} MiB" } ?: "JVM default"}")
        jdkLine(suite)?.let(::println)
        println("placement: app on ${placement.appCpus.ifEmpty { "any CPU (quota only)" }}, load generator and downstream on ${placement.driverCpus.ifEmpty { "any CPU (shared)" }}")
        suite.database?.let { db ->
            println("database: PostgreSQL on CPUs ${db.cpus.ifEmpty { placement.downstreamCpus }.ifEmpty { "any CPU (shared)" }}, memory ${db.memoryBytes?.let { "${it shr 20} MiB" } ?: "not limited"}, " +
                "fsync ${if (db.fsync) "on" else "off"}, max ${db.maxConnections} connections, schema ${db.schema}; the apps get its JDBC URL (and R2DBC on WebFlux)")
        }
        if (!suite.hosts.allLocal) {
            val p = suite.hosts.placement
            println("hosts: app on ${p.app}, downstream on ${p.downstream}, load on ${p.load.joinToString()}; " + suite.hosts.hosts.filter { it.name != "local" }.joinToString("; ") { h ->
                when (h) {
                    is stackbench.runner.suite.HostSpec.Netns -> "${h.name} a namespace" + (h.rtt?.let { ", rtt ${Units.formatDuration(it)}" } ?: "") + (h.rateBitsPerSecond?.let { ", ${it / 1_000_000} Mbit/s" } ?: "")
                    is stackbench.runner.suite.HostSpec.Ssh -> "${h.name} ${h.user}@${h.address}:${h.port} over ssh"
                    is stackbench.runner.suite.HostSpec.Local -> "${h.name} this machine"
                }
            })
        }
        println("load: ${plan.cells.firstOrNull()?.load?.describe() ?: plan.searches.firstOrNull()?.let { "capacity search, p99 <= ${it.slo.p99.toMillis()} ms" }}")
        println("scale: $scale; restart: ${suite.restart.id}")
        println(processLine(plan))
        println()
        val rows = plan.cells.map { c ->
            listOf(c.index.toString(), c.app.name, c.endpoint.path, c.load.shape.describe(), "r${c.repetition}", c.processLabel.substringAfterLast('#').let { "p$it" },
                settings(c, cpus).joinToString(" "))
        }
        if (rows.isNotEmpty()) println(SummaryTable.table(listOf("#", "app", "request", "load", "rep", "process", "app settings"), rows, setOf(0)))
        for (s in plan.searches) {
            println("capacity search ${s.key}: open model from ${s.startRate} req/s up to ${s.maxRate}, until p99 > ${s.slo.p99.toMillis()} ms or errors > ${s.slo.errorRate * 100}%")
        }
        println()
        println("${plan.cells.size} cells${if (plan.searches.isEmpty()) "" else " and ${plan.searches.size} capacity searches"}, estimated ${ConsoleProgress.format(plan.estimatedDuration)}")
        stackbench.runner.decide.ProcessesNeeded.lines(suite.comparisons, earlierRun(suite.name), plan.processes).forEach(::println)
        (untilDecided ?: suite.untilDecided)?.takeIf { suite.comparisons.isNotEmpty() }?.let { budget ->
            val k = stackbench.runner.run.Rounds.maxLooks(plan, budget)
            println("until-decided ${Units.formatDuration(budget)}: at most $k look(s) at the comparisons (the planned cells, then ${k - 1} round(s) of one more process a side, " +
                "by this plan's estimate), each at the confidence alpha spending allows: " +
                (1..k).joinToString(", ") { "%.2f %%".format(java.util.Locale.ROOT, 100 * stackbench.runner.stats.SequentialLooks(k).confidenceAt(it)) })
        }
    }

    /**
     * The latest run of [suite] on this machine in the history, read from its results folder; null when there is none or the
     * history cannot be read (the plan still prints: the estimate is advice, not a condition).
     */
    private fun earlierRun(suite: String): stackbench.runner.results.RunResult? {
        val url = stackbench.runner.history.HistoryLocation.url(history, System.getenv(), Home.results)
        if (stackbench.runner.history.HistoryLocation.sqliteFile(url)?.let { Files.exists(it) } == false) return null
        return runCatching {
            stackbench.runner.history.HistoryStore.open(url).use { store ->
                val row = store.latest(suite, EnvironmentProbe.hostname()) ?: return@use null
                HistoryRuns.folder(row.folder, row.id)?.let { stackbench.runner.results.ResultsStore.read(it) }
            }
        }.onFailure { System.err.println("stackbench: plan: the history at ${stackbench.runner.history.HistoryLocation.shown(url)} could not be read " +
            "(${it.message}); no estimate of the processes needed") }.getOrNull()
    }

    /** Which JDK each app that names one runs on, or what is missing; null when no app names one (they run on the lab's). */
    private fun jdkLine(suite: stackbench.runner.suite.Suite): String? {
        val named = suite.apps.mapNotNull { app -> stackbench.runner.sut.AppJdk.of(app) { stackbench.runner.sut.AppJdk.installed(Home.path) }?.let { app to it } }
        if (named.isEmpty()) return null
        return "jdk: " + named.joinToString("; ") { (app, jdk) ->
            "${app.name} on " + (jdk.jdk?.toString() ?: "JDK ${jdk.spec.id}, not found (${(jdk.resolution as stackbench.runner.jdk.JdkChoice.Resolution.Missing).why})")
        } + if (named.size < suite.apps.size) "; the others on the lab's own (${Home.java})" else ""
    }

    /** Processes × windows per configuration, and what that means under the restart policy. */
    private fun processLine(plan: stackbench.runner.plan.Plan): String =
        if (plan.suite.restart == stackbench.runner.suite.Restart.APP) {
            "processes: ${plan.processes} × ${plan.windows} window(s) per configuration (restart: app; an app's process serves its configurations' windows of that round)" +
                if (plan.processes < 2 && plan.suite.comparisons.isNotEmpty()) "; a comparison needs 2 processes a side: set processes: 2 or more" else ""
        } else {
            "processes: ${plan.processes * plan.windows} per configuration, each one window (restart: cell: every cell starts its own app)"
        }

    /** What the plan shows of a cell's app command: the lab's JVM flags and the app's settings, not its per-cell ports. */
    private fun settings(c: stackbench.runner.plan.Cell, cpus: Int): List<String> = if (c.app.stack != null) {
        AppCommand.jvmFlags(c, cpus, null) + AppCommand.appArgs(c, "127.0.0.1", AppPorts(0, 0), null)
            .filter { !it.startsWith("--server.port") && !it.startsWith("--stackbench.stats") && !it.startsWith("--server.address") }
    } else {
        val ctx = stackbench.runner.sut.LaunchContext(c, java.nio.file.Path.of("java"), Home.path, cpus, "127.0.0.1", AppPorts(0, 0), null,
            java.nio.file.Path.of("gc.log"))
        val sut = stackbench.runner.sut.SystemUnderTest.of(c.app, Home.path)
        // a system the lab does not start has no command: where it runs
        sut.runningAt?.let { listOf("(not started: $it)") }
            ?: (sut.command(ctx).let { if (sut.capabilities.jvm) it.drop(1) else it } + sut.environment(ctx).map { (k, v) -> "$k=$v" })
    }
}
