package stackbench.runner.cli

import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.Context
import com.github.ajalt.clikt.core.ProgramResult
import com.github.ajalt.clikt.parameters.arguments.argument
import com.github.ajalt.clikt.parameters.arguments.optional
import com.github.ajalt.clikt.parameters.options.flag
import com.github.ajalt.clikt.parameters.options.option
import com.github.ajalt.clikt.parameters.options.split
import com.github.ajalt.clikt.parameters.types.choice
import com.github.ajalt.clikt.parameters.types.path
import stackbench.runner.env.EnvironmentProbe
import stackbench.runner.host.Placement
import stackbench.runner.host.SelfAffinity
import stackbench.runner.plan.Plan
import stackbench.runner.plan.Planner
import stackbench.runner.results.CellStatus
import stackbench.runner.results.ResultsStore
import stackbench.runner.results.RunInfo
import stackbench.runner.results.RunResult
import stackbench.runner.results.RunStatus
import stackbench.runner.run.AppSessions
import stackbench.runner.run.CellRunner
import stackbench.runner.run.ConsoleProgress
import stackbench.runner.run.Downstreams
import stackbench.runner.run.SuiteRunner
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.Ranges
import stackbench.runner.yaml.OutOfRange
import stackbench.runner.suite.Restart
import stackbench.runner.suite.Suite
import stackbench.runner.suite.SuiteParser
import stackbench.runner.sut.DownstreamLauncher
import java.nio.file.Files
import java.nio.file.Path
import java.time.Instant
import java.time.ZoneOffset
import java.time.format.DateTimeFormatter

class RunCommand : CliktCommand(name = "run") {
    override fun help(context: Context) = """
        Runs a suite: every cell isolated, verified, warmed up, loaded and sampled; results are written as
        the run goes to results/<suite>-<UTC time>/ (results.json, results.csv, raw driver output, logs).
        With no SUITE, runs suites/quick.yaml.
    """.trimIndent()

    private val suiteArg by argument("SUITE", help = "a suite name in suites/ (e.g. quick) or a path to a suite file").optional()
    private val scale by option("--scale", help = "multiply warm-up and measured durations by this (0.1 = a tenth as long), ${OutOfRange.fmt(Ranges.SCALE_MIN)}..${OutOfRange.fmt(Ranges.SCALE_MAX)}; recorded in results").number(Ranges.SCALE_MIN, Ranges.SCALE_MAX)
    private val repetitions by option("--repetitions", help = "override the suite's repetitions (${Ranges.REPETITIONS.first}..${Ranges.REPETITIONS.last})").wholeNumber(Ranges.REPETITIONS)
    private val restart by option("--restart", help = "override the suite's restart policy: cell (a fresh app per cell) or app (one app serves its consecutive cells, as one container serving every endpoint)")
        .choice(*Restart.entries.map { it.id }.toTypedArray())
    private val apps by option("--apps", metavar = "NAME,...", help = "run only these app configurations of the suite (their names in it)").split(",")
    private val resume by option("--resume", help = "a results folder of an interrupted run: run only the cells it lacks").path(canBeFile = false)
    private val out by option("--out", help = "the results folder (default: results/<suite>-<UTC time>); a new or an existing folder, not a file").path(canBeFile = false)
    private val untilDecided by option("--until-decided", metavar = "BUDGET",
        help = "after the planned repetitions, repeat the cells of every undecided comparison of the suite (its compare: list), interleaved, until each is decided or BUDGET (e.g. 20m) is spent; overrides the suite's until-decided")
        .duration(Ranges.UNTIL_DECIDED_MIN, Ranges.UNTIL_DECIDED_MAX)
    private val long by option("--long", help = "confirm a run whose plan is estimated past ${MAX_UNCONFIRMED.toHours()} h").flag()
    private val noInstall by option("--no-install", help = "do not install a missing load generator; stop with the command instead").flag()

    override fun run() {
        val earlier = resume?.let {
            try { ResultsStore.read(it) } catch (e: IllegalArgumentException) { throw BadInput("--resume: ${e.message}") }
        }
        val (parsed, suiteText, suitePath) = loadSuite(earlier)
        val appsKept = apps ?: earlier?.run?.apps
        val suite = try { parsed.withRestart(restart ?: earlier?.run?.restart).withApps(appsKept) } catch (e: IllegalArgumentException) { throw BadInput("--apps: ${e.message}") }
        val scaleUsed = scale ?: earlier?.run?.scale ?: 1.0
        if (scaleUsed <= 0) throw BadInput("--scale must be positive, was $scaleUsed")
        val plan = Planner.plan(suite, scaleUsed, repetitions ?: earlier?.run?.repetitions)
        if (plan.cells.isEmpty() && plan.searches.isEmpty()) throw BadInput("the suite expands to no cells")
        if (plan.estimatedDuration > MAX_UNCONFIRMED && !long) {
            throw BadInput("the plan is estimated at ${stackbench.runner.run.ConsoleProgress.format(plan.estimatedDuration)}, past the ${MAX_UNCONFIRMED.toHours()} h " +
                "a run may take unconfirmed; check it with ./stackbench plan, shorten it (--scale, --repetitions, --apps) or confirm with --long")
        }
        if (untilDecided != null && suite.comparisons.isEmpty()) {
            throw BadInput("--until-decided: suite ${suite.name} names no comparisons to decide (add a compare: list, see docs/suite-format.md)")
        }

        val console = System.out
        val drivers = DriverSetup(Home.path, console)
        drivers.ready(suite.load.driver, install = !noInstall)
        checkJars(plan)
        val localLab = LabFactory.create(console, drivers)
        localLab.isolation.limitation?.let { console.println("stackbench: warning: $it; cells run pinned with taskset only and results record that") }
        localLab.isolation.removeStale { pid -> ProcessHandle.of(pid).ifPresent { it.destroyForcibly() } }
            .takeIf { it.isNotEmpty() }?.let { console.println("stackbench: removed ${it.size} cgroup(s) an earlier run left behind") }

        keepRunnerOffTheAppCpus(suite)
        val started = Instant.now()
        val id = earlier?.run?.id ?: "${suite.name}-${STAMP.format(started)}"
        val dir = resume ?: out ?: Home.results.resolve(id)
        try { Files.createDirectories(dir) } catch (e: java.nio.file.FileSystemException) { throw BadInput("cannot make the results folder $dir: ${e.message}") }
        if (earlier == null) Files.writeString(dir.resolve("suite.yaml"), suiteText)
        // if this runner is killed (SIGKILL), its watchdog ends the run's processes and removes its groups
        val netTag = stackbench.runner.host.NetworkPlan.tag(ProcessHandle.current().pid())
        stackbench.runner.host.Watchdog.start(stackbench.runner.sut.AppCommand.ownerFlag(dir), stackbench.runner.sut.AppCommand.gcLogMarker(dir),
            "sb${ProcessHandle.current().pid()}", localLab.isolation.groupRoots, netTag.takeIf { !suite.hosts.allLocal })
        val labHosts = openHosts(suite, localLab, netTag, dir)
        try {
            runOn(localLab.withHosts(labHosts.roles), labHosts, suite, plan, dir, earlier, suitePath, suiteText, scaleUsed, appsKept, started, id)
        } finally {
            labHosts.close()
        }
    }

    /** The suite's hosts, opened after the leftovers of killed runs are removed; everything local when it names none. */
    private fun openHosts(suite: Suite, lab: stackbench.runner.run.Lab, netTag: String, dir: Path): stackbench.runner.host.LabHosts {
        // hosts of kind local (any name) are this machine: no network, no sweep
        if (suite.hosts.allLocal) return stackbench.runner.host.LabHosts.open(suite.hosts, lab.registry, netTag)
        runCatching { stackbench.runner.host.LabNetwork.sweep() }.getOrNull()?.takeUnless { it.isEmpty }?.let {
            println("stackbench: removed what an earlier, killed run left: namespaces ${it.namespaces.ifEmpty { listOf("none") }.joinToString()}, links ${it.links.ifEmpty { listOf("none") }.joinToString()}")
        }
        val hosts = try {
            stackbench.runner.host.LabHosts.open(suite.hosts, lab.registry, netTag, listOf(stackbench.runner.sut.AppCommand.ownerFlag(dir)))
        } catch (e: IllegalStateException) {
            throw BadInput("the suite's hosts could not be set up: ${e.message}")
        }
        hosts.describe().forEach { h ->
            println("host ${h.name}: ${h.kind} at ${h.address} runs ${h.roles.joinToString()}" +
                (h.rttMs?.let { ", round trip +${it} ms by ${h.rttMethod}" } ?: "") + (h.rateBitsPerSecond?.let { ", ${it / 1_000_000} Mbit/s" } ?: ""))
        }
        return hosts
    }

    private fun runOn(lab: stackbench.runner.run.Lab, labHosts: stackbench.runner.host.LabHosts, suite: Suite, plan: Plan, dir: Path, earlier: RunResult?,
                      suitePath: String, suiteText: String, scaleUsed: Double, appsKept: List<String>?, started: Instant, id: String) {
        val console = System.out
        val environment = EnvironmentProbe.read(Home.path, lab.java, lab.isolation.kind,
            mapOf(suite.load.driver.id to lab.driver(suite.load.driver).version)).copy(hosts = hostRecords(labHosts))
        val info = earlier?.run?.copy(status = RunStatus.RUNNING, finishedAt = null, command = command()) ?: RunInfo(
            id = id, suite = suite.name, suiteFile = suitePath, suiteText = suiteText, description = suite.description,
            scale = scaleUsed, restart = suite.restart.id, apps = appsKept, repetitions = plan.cells.maxOfOrNull { it.repetition } ?: suite.repetitions,
            plannedCells = plan.cells.size, command = command(), startedAt = started.toString(), finishedAt = null,
            status = RunStatus.RUNNING,
        )
        val downstreams = Downstreams(DownstreamLauncher(lab.hosts.downstream, lab.java, lab.home, lab.http), suite.downstream, dir)
        // with restart: app, an app serves all its cells, so it gets the downstream if any of them calls it
        val appsCallingDownstream = (plan.cells.map { it.app to it.endpoint } + plan.searches.map { it.app to it.endpoint })
            .filter { it.second.needsDownstream }.map { it.first.name }.toSet()
        val cellRunner = CellRunner(lab)
        // the runner keeps to the driver's CPUs while a cell pins its app, so that nothing of its own runs on the app's
        val affinity = SelfAffinity(lab.machineCpus, SelfAffinity.taskset())
        var warnedAffinity = false
        val runner = SuiteRunner(
            executor = { cell, ctx ->
                affinity.placeFor(Placement.of(cell.profile, lab.machineCpus))
                affinity.problem?.takeUnless { warnedAffinity }?.let {
                    warnedAffinity = true
                    console.println("stackbench: warning: the runner could not keep off the app's CPUs: $it")
                }
                cellRunner.run(cell, ctx)
            },
            listener = ConsoleProgress(console, System.console() != null),
            killChildren = { lab.registry.killAll() },
            downstreamUrl = { cell, placement ->
                val needs = if (suite.restart == Restart.APP) cell.app.name in appsCallingDownstream else cell.endpoint.needsDownstream
                if (needs) downstreams.urlFor(placement.downstreamCpus) else null
            },
            afterRun = { downstreams.stopAll() },
            sessions = if (suite.restart == Restart.APP) AppSessions(lab.http) else null,
        )
        // on Ctrl-C or SIGTERM, the JVM waits for the summary and the resume hint before it halts
        ShutdownGate().use {
            try {
                val result = runner.run(plan, dir, info, environment, earlier, untilDecided = untilDecided ?: suite.untilDecided)
                labHosts.close() // before the summary: Ctrl-C's gate holds the JVM only until run's last line
                finish(result, dir)
            } finally {
                labHosts.close()
            }
        }
    }

    private fun hostRecords(hosts: stackbench.runner.host.LabHosts): List<stackbench.runner.results.HostRecord> =
        if (hosts.spec.allLocal) emptyList()
        else hosts.describe()

    private fun finish(result: RunResult, dir: Path) {
        println()
        println(SummaryTable.render(result))
        println()
        if (result.decisions.isNotEmpty()) {
            println(SummaryTable.decisions(result))
            println()
        }
        val failed = result.cells.count { it.status == CellStatus.FAILED }
        println("results: $dir")
        // the record is already on disk: a report that cannot render must not change the run's outcome
        runCatching { stackbench.runner.report.Reports.write(result, dir) }
            .onSuccess { println("report:  ${it.html}") }
            .onFailure { println("report:  not written (${it.message}); try ./stackbench report $dir") }
        when {
            result.run.status == RunStatus.INTERRUPTED -> {
                println("the run was interrupted; finish it with: ./stackbench run --resume $dir")
                throw ProgramResult(130)
            }
            failed > 0 -> {
                println("$failed cell(s) failed; see the reasons above and the logs under $dir/cells")
                throw ProgramResult(Exit.CELL_FAILED)
            }
        }
    }

    private fun loadSuite(earlier: RunResult?): Triple<Suite, String, String> {
        val parser = SuiteParser(MachineFacts(EnvironmentProbe.machineCpus()))
        if (earlier != null && suiteArg == null) {
            return Triple(parser.parse(earlier.run.suiteText, earlier.run.suiteFile), earlier.run.suiteText, earlier.run.suiteFile)
        }
        val path = Home.suite(suiteArg ?: "quick")
        val shown = runCatching { Home.path.relativize(path.toAbsolutePath()).toString() }.getOrDefault(path.toString())
        val text = stackbench.runner.suite.SuiteText.read(path, shown)
        val suite = parser.parse(text, shown)
        if (earlier != null && earlier.run.suiteText != text) throw BadInput("--resume: ${resume} was run with a different suite text than $path")
        return Triple(suite, text, shown)
    }

    private fun checkJars(plan: Plan) {
        val missing = (plan.cells.map { it.app.stack } + plan.searches.map { it.app.stack }).distinct()
            .map { it.jarPath(Home.path) }.filter { !Files.isRegularFile(it) }
        val downstream = (plan.cells.any { it.endpoint.needsDownstream } || plan.searches.any { it.endpoint.needsDownstream }) &&
            !Files.isRegularFile(Home.path.resolve(stackbench.runner.catalog.DownstreamJar.PATH))
        if (missing.isNotEmpty() || downstream) {
            throw BadInput("the apps are not built (${missing.joinToString()}${if (downstream) " downstream.jar" else ""} missing); build them with: ./mvnw -q -B package -DskipTests (./stackbench does it on first use)")
        }
    }

    /**
     * With pinned app CPUs, moves every thread of this runner (sampler, progress) to the other CPUs, so the
     * runner never competes with the app. Threads started later inherit it; the app itself gets its CPUs
     * from its cpuset group (joining one resets the inherited affinity).
     */
    private fun keepRunnerOffTheAppCpus(suite: Suite) {
        val rest = stackbench.runner.host.Placement.of(suite.profile, EnvironmentProbe.machineCpus()).driverCpus
        if (rest.isEmpty()) return
        val pid = ProcessHandle.current().pid()
        runCatching { ProcessBuilder("taskset", "-a", "-p", "-c", rest.joinToString(","), pid.toString()).redirectErrorStream(true).start().waitFor() }
    }

    private fun command(): List<String> = listOf("stackbench") + Invocation.args

    companion object {
        /** The longest estimated run that starts without `--long`. */
        val MAX_UNCONFIRMED: java.time.Duration = java.time.Duration.ofHours(12)
        val STAMP: DateTimeFormatter = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC)
    }
}
