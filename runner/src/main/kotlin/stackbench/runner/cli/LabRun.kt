package stackbench.runner.cli

import stackbench.runner.cell.AppSessions
import stackbench.runner.cell.CellRunner
import stackbench.runner.cell.ConsoleProgress
import stackbench.runner.env.EnvironmentProbe
import stackbench.runner.host.Placement
import stackbench.runner.host.SelfAffinity
import stackbench.runner.install.DriverSetup
import stackbench.runner.plan.Plan
import stackbench.runner.results.ComparisonRecord
import stackbench.runner.results.ResultsStore
import stackbench.runner.results.RunInfo
import stackbench.runner.results.RunResult
import stackbench.runner.results.RunStatus
import stackbench.runner.run.Downstreams
import stackbench.runner.run.SuiteRunner
import stackbench.runner.suite.Restart
import stackbench.runner.suite.Suite
import stackbench.runner.results.SecretSweep
import stackbench.runner.results.Sittings
import stackbench.runner.sut.DownstreamLauncher
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration
import java.time.Instant
import java.time.ZoneOffset
import java.time.format.DateTimeFormatter

/**
 * A suite's plan run on this machine into a results folder, the way `run` does it once its arguments are read;
 * `findings-run` does it for each of its runs. Readies the load generator, checks the apps are built, sets up the
 * isolation, the watchdog and the hosts, runs the cells ([SuiteRunner]), prints the summary and writes the report.
 */
class LabRun(
    private val install: Boolean,
    private val fastStart: Boolean = false,
    /** The history the finished run is indexed in (`run --history`); null: the environment's, else results'. */
    private val history: String? = null,
) {

    /** Where the suite's text came from: recorded in the results, and written to the folder's suite.yaml. */
    data class Source(val text: String, val path: String)

    /**
     * Runs [plan] (of [suite], at [scale]) into the folder [folder] gives for the run's id, resuming [earlier] when
     * given. [epilogue] runs after the summary while Ctrl-C still waits for it (the resume hint, an exit code).
     */
    fun run(
        suite: Suite, plan: Plan, source: Source, scale: Double, apps: List<String>?, earlier: RunResult?, untilDecided: Duration?,
        folder: (id: String) -> Path, epilogue: (RunResult, Path) -> Unit = { _, _ -> },
    ): RunResult {
        val console = System.out
        val drivers = DriverSetup(Home.path, console)
        drivers.ready(suite.load.settings.driver, install = install)
        OwnBuilds.run((plan.cells.map { it.app } + plan.searches.map { it.app }).mapNotNull { it.build }.distinct(), Home.path, console)
        checkJars(plan)
        val localLab = LabFactory.create(console, drivers, fastStart = fastStart)
        localLab.isolation.limitation?.let { console.println("stackbench: warning: $it; cells run pinned with taskset only and results record that") }
        localLab.isolation.removeStale { pid -> ProcessHandle.of(pid).ifPresent { it.destroyForcibly() } }
            .takeIf { it.isNotEmpty() }?.let { console.println("stackbench: removed ${it.size} cgroup(s) an earlier run left behind") }
        runCatching { stackbench.runner.database.DatabaseFolders.removeStale() }.getOrNull()
            ?.takeIf { it.isNotEmpty() }?.let { console.println("stackbench: removed ${it.size} database folder(s) an earlier run left behind: ${it.joinToString()}") }

        keepRunnerOffTheAppCpus(suite)
        val started = Instant.now()
        val id = earlier?.run?.id ?: "${suite.name}-${STAMP.format(started)}"
        val dir = folder(id)
        try { Files.createDirectories(dir) } catch (e: java.nio.file.FileSystemException) { throw BadInput("cannot make the results folder $dir: ${e.message}") }
        if (earlier == null) Files.writeString(dir.resolve("suite.yaml"), source.text)
        // if this runner is killed (SIGKILL), its watchdog ends the run's processes and removes its groups
        val netTag = stackbench.runner.host.NetworkPlan.tag(ProcessHandle.current().pid())
        stackbench.runner.host.Watchdog.start(stackbench.runner.sut.AppCommand.ownerFlag(dir), stackbench.runner.sut.AppCommand.gcLogMarker(dir),
            "sb${ProcessHandle.current().pid()}", localLab.isolation.groupRoots, netTag.takeIf { !suite.hosts.allLocal },
            stackbench.runner.database.DatabaseFolders.root())
        val labHosts = openHosts(suite, localLab, netTag, dir)
        try {
            val info = info(suite, plan, source, scale, apps, earlier, started, id)
            return runOn(localLab.withHosts(labHosts.roles), labHosts, suite, plan, dir, earlier, info, untilDecided, epilogue)
        } finally {
            labHosts.close()
        }
    }

    /** The run's record: a new one, or the earlier one resumed, narrowed as the suite now is (a narrower or wider `findings-run`). */
    private fun info(suite: Suite, plan: Plan, source: Source, scale: Double, apps: List<String>?, earlier: RunResult?, started: Instant, id: String): RunInfo {
        val only = suite.only?.let { keys -> (plan.cells.map { it.configKey } + plan.searches.map { it.configKey }).distinct().filter { it in keys } }
        val comparisons = if (suite.only == null) null else suite.comparisons.map { ComparisonRecord.of(it) }
        return earlier?.run?.copy(status = RunStatus.RUNNING, finishedAt = null, command = command(), only = only, comparisons = comparisons) ?: RunInfo(
            id = id, suite = suite.name, suiteFile = source.path, suiteText = source.text, description = suite.description,
            scale = scale, restart = suite.restart.id, apps = apps, repetitions = if (plan.processes > 1) plan.windows else plan.cells.maxOfOrNull { it.repetition } ?: suite.repetitions,
            processes = plan.processes,
            plannedCells = plan.cells.size, command = command(), startedAt = started.toString(), finishedAt = null,
            status = RunStatus.RUNNING, only = only, comparisons = comparisons,
        )
    }

    /** The suite's hosts, opened after the leftovers of killed runs are removed; everything local when it names none. */
    private fun openHosts(suite: Suite, lab: stackbench.runner.cell.Lab, netTag: String, dir: Path): stackbench.runner.host.LabHosts {
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

    /** The suite's database, when it has one, started before the first cell and stopped (its folder removed) however the run ends. */
    private fun runOn(lab: stackbench.runner.cell.Lab, labHosts: stackbench.runner.host.LabHosts, suite: Suite, plan: Plan, dir: Path, earlier: RunResult?,
                      info: RunInfo, untilDecided: Duration?, epilogue: (RunResult, Path) -> Unit): RunResult {
        val spec = suite.database ?: return runOn(lab, null, labHosts, suite, plan, dir, earlier, info, untilDecided, epilogue)
        val database = startDatabase(spec, lab, suite, dir)
        try {
            return runOn(lab.withDatabase(database.endpoint), database, labHosts, suite, plan, dir, earlier, info, untilDecided, epilogue)
        } finally {
            database.stop()
        }
    }

    private fun startDatabase(spec: stackbench.runner.suite.DatabaseSpec, lab: stackbench.runner.cell.Lab, suite: Suite, dir: Path): stackbench.runner.database.RunningDatabase {
        val cpus = spec.cpus.ifEmpty { Placement.of(suite.profile, lab.machineCpus).downstreamCpus }
        val started = System.nanoTime()
        val server = stackbench.runner.database.PostgresServer(stackbench.runner.host.LocalHost(lab.registry), lab.isolation, lab.home)
        val db = try {
            server.start(spec, cpus, "sb${ProcessHandle.current().pid()}-database", dir.resolve("database").resolve("postgres.log"))
        } catch (e: stackbench.runner.database.DatabaseStartException) {
            throw BadInput((listOf(e.message!!) + e.logTail.map { "  $it" }).joinToString("\n"))
        }
        println("database: PostgreSQL at ${db.endpoint.host}:${db.endpoint.port} (${db.endpoint.name}), CPUs ${cpus.ifEmpty { null }?.joinToString(",") ?: "any"}, " +
            "memory ${spec.memoryBytes?.let { "${it shr 20} MiB" } ?: "not limited"}, fsync ${if (spec.fsync) "on" else "off"}, ${spec.schema} loaded in " +
            "%.1f s".format((System.nanoTime() - started) / 1e9))
        return db
    }

    private fun runOn(lab: stackbench.runner.cell.Lab, database: stackbench.runner.database.RunningDatabase?, labHosts: stackbench.runner.host.LabHosts, suite: Suite,
                      plan: Plan, dir: Path, earlier: RunResult?, info: RunInfo, untilDecided: Duration?, epilogue: (RunResult, Path) -> Unit): RunResult {
        val console = System.out
        val environment = EnvironmentProbe.read(Home.path, lab.java, lab.isolation.kind,
            mapOf(suite.load.settings.driver.id to lab.driver(suite.load.settings.driver).version), output = dir).copy(hosts = hostRecords(labHosts))
            // an install has no git: its runs record the commit its build baked in
            .let { e -> Build.ofInstall?.let { e.copy(gitCommit = it.commit, gitDirty = it.dirty, gitChanges = null) } ?: e }
        // each sitting of the run is recorded: a resume may meet another host or another tree, and its cells then compare across them
        val sittings = Sittings.next(earlier, environment, if (earlier == null) info.startedAt else java.time.Instant.now().toString())
        Sittings.differences(sittings.first(), sittings.last()).takeIf { it.isNotEmpty() }?.let {
            console.println("stackbench: warning: this sitting differs from the one the run began in: ${it.joinToString("; ")}; " +
                "its cells compare across them (results.json records each sitting, run.sittings)")
        }
        val runInfo = info.copy(sittings = sittings)
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
            afterRun = { downstreams.stopAll(); database?.stop() },
            sessions = if (suite.restart == Restart.APP) AppSessions(lab.http) else null,
            probes = stackbench.runner.cell.WindowProbes.of(suite, lab, database),
        )
        // on Ctrl-C or SIGTERM, the JVM waits for the summary and the epilogue (the resume hint) before it halts
        ShutdownGate().use {
            try {
                val result = runner.run(plan, dir, runInfo, environment, earlier, untilDecided = untilDecided)
                labHosts.close() // before the summary: Ctrl-C's gate holds the JVM only until run's last line
                SecretSweep.sweep(dir, suite.secrets).takeIf { it.isNotEmpty() }?.let { files ->
                    console.println("stackbench: a value of ${suite.secrets.joinToString { "\${env:$it}" }} was written by the app or a tool into ${files.joinToString()}: written back as its placeholder")
                }
                summary(result, dir, lab.java, suite.secrets)
                HistoryIndexing.index(dir, console, given = history)
                epilogue(result, dir)
                return result
            } finally {
                labHosts.close()
            }
        }
    }

    private fun hostRecords(hosts: stackbench.runner.host.LabHosts): List<stackbench.runner.results.HostRecord> =
        if (hosts.spec.allLocal) emptyList()
        else hosts.describe()

    private fun summary(result: RunResult, dir: Path, java: Path, secrets: List<String>) {
        println()
        println(SummaryTable.render(result))
        println()
        if (result.decisions.isNotEmpty()) {
            println(SummaryTable.decisions(result))
            println()
        }
        println("results: $dir")
        // the analyses after the run, each into its own section, and the record written once after them
        val analysed = AfterRun.apply(result, dir, AfterRun.steps(java)) { println("profiles: $it") }
        if (analysed != result) ResultsStore(dir, secrets).write(analysed)
        // the record is already on disk: a report that cannot render must not change the run's outcome
        runCatching { Reports.write(analysed, dir) }
            .onSuccess { println("report:  ${it.html}") }
            .onFailure { println("report:  not written (${it.message}); try ./stackbench report $dir") }
    }

    /** Every app the plan starts exists and can start (built-in jars built, own jars and commands present), checked before the first cell. */
    private fun checkJars(plan: Plan) {
        val problems = startProblems(plan) { true }
        if (problems.isNotEmpty()) throw BadInput(problems.joinToString("\n"))
    }

    /**
     * With pinned app CPUs, moves every thread of this runner (sampler, progress) to the other CPUs, so the
     * runner never competes with the app. Threads started later inherit it; the app itself gets its CPUs
     * from its cpuset group (joining one resets the inherited affinity). Without pinned CPUs, every CPU: an
     * earlier run in the same process (`findings-run`) may have moved the runner, and its children inherit it.
     */
    private fun keepRunnerOffTheAppCpus(suite: Suite) {
        val cpus = EnvironmentProbe.machineCpus()
        val rest = Placement.of(suite.profile, cpus).driverCpus.ifEmpty { (0 until cpus).toList() }
        val pid = ProcessHandle.current().pid()
        runCatching { ProcessBuilder("taskset", "-a", "-p", "-c", rest.joinToString(","), pid.toString()).redirectErrorStream(true).start().waitFor() }
    }

    private fun command(): List<String> = listOf("stackbench") + Invocation.args

    companion object {
        val STAMP: DateTimeFormatter = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC)

        /** The results of [dir] when it holds a run's record (to resume), else null: a new run. */
        fun earlier(dir: Path): RunResult? = if (Files.isRegularFile(dir.resolve(ResultsStore.JSON_FILE))) ResultsStore.read(dir) else null

        /**
         * What keeps the plan's apps (those [which] selects) from starting: a built-in app not built, an own jar or
         * command missing, a `jdk:` not installed or too old, the downstream service not built. `findings-run` asks it
         * of the apps known before any build (built-in apps and own jars the lab does not build) for every run before
         * the first, so a run that cannot start says so before hours of other runs, not when its turn comes.
         */
        fun startProblems(plan: Plan, which: (stackbench.runner.suite.AppConfig) -> Boolean): List<String> {
            val apps = (plan.cells.map { it.app } + plan.searches.map { it.app }).distinct().filter(which)
            val problems = apps.mapNotNull { stackbench.runner.sut.SystemUnderTest.of(it, Home.path).problem() }.distinct()
            val downstream = (plan.cells.any { it.endpoint.needsDownstream } || plan.searches.any { it.endpoint.needsDownstream }) &&
                !Files.isRegularFile(Home.path.resolve(stackbench.runner.catalog.DownstreamJar.PATH))
            return problems + listOfNotNull(if (downstream) "the downstream service is not built: downstream.jar is missing (run ./stackbench build)" else null)
        }
    }
}
