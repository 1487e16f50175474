package stackbench.runner.cell

import oshi.software.os.OperatingSystem
import stackbench.runner.plan.LoadShape
import stackbench.runner.plan.ScenarioWarmups
import stackbench.runner.probe.CompilerThreads
import stackbench.runner.suite.Defaults
import stackbench.runner.suite.LoadLength

/**
 * Warm up: a new app process is first primed on `/noop` ([Priming]); with `compile-first`, the cell's own request
 * then runs at one connection until the JIT is quiet (at most that long), so that the compiler threads are not
 * starved by the cell's busy request threads (once a configuration a process, before its first window); then the cell's own load runs for at least
 * the warm-up, and until the app is steady ([WarmupWatch]: compilation quiet, throughput without trend; or a closed
 * load's rate flat at its Little's-law ceiling, which no compilation can raise) or the warm-up's maximum is reached.
 * Its figures are not counted. A cell without warm-up measures a cold JVM on purpose (a container started for the
 * test): no priming either; nor a cell whose suite says `prime: false`. In: the app, the driver. Out: the priming, the warm-up's
 * record and slices, and its rate for the window's length.
 */
class WarmUpStep(private val os: OperatingSystem, private val quiet: QuietWait) : CellStep {
    override val name = "warm up"

    override fun run(run: CellRun): Outcome? {
        val (cell, ctx, app) = Triple(run.cell, run.ctx, run.started())
        val ready = run.driver
        // priming drives the built-in apps' /noop: an own app has none, and its cell's own load does the warming
        if (app.prime == null && !cell.load.settings.warmup.isZero && cell.load.settings.prime && app.sut.capabilities.primeEndpoint) {
            ctx.listener.phase(cell, "priming")
            app.prime = Priming(run.lab).prime(cell, ctx, app, run.placement, run.threads, ready, run.dir, compiler(app))
            if (ctx.stopping()) return Outcome.Interrupted
            if (!app.isAlive()) return run.exited("priming")
            quiet.await(app, cell)
        }
        run.record.prime = app.prime
        if (!cell.load.settings.warmup.isZero) {
            // once a configuration a process: its later windows find its request compiled (and their warm-up still waits
            // for the JIT to be quiet)
            cell.load.settings.compileFirst?.takeIf { app.compiledFirst.add(cell.configKey) }?.let { cap ->
                ctx.listener.phase(cell, "compiling first")
                val (watch, seconds) = stage(run, Stage.compileFirst(cap))
                run.record.compileFirst = watch.record(seconds)
                if (ctx.stopping()) return Outcome.Interrupted
                if (!app.isAlive()) return run.exited("compiling first")
            }
            run.probes = ctx.probes.start(run.probeTarget())
            ctx.listener.phase(cell, "warming up")
            val own = (cell.load.shape as? LoadShape.Scenario)?.takeIf { it.scenario.warmup is stackbench.runner.suite.ScenarioWarmup.Stages }
            run.warmRate = if (own != null) ScenarioStages.run(run, own) else {
                val (watch, seconds) = stage(run, Stage.warmUp(cell))
                recorded(run, watch, seconds) { run.record.warmupRecord = it }
            }
            if (cell.load.settings.warmupReconnect && !ctx.stopping() && app.isAlive()) {
                // the driver closed its connections: the window's new ones would meet that code cold (a JIT's
                // uncommon traps in the paths of closing and opening them); here they meet it first
                quiet.await(app, cell)
                ctx.listener.phase(cell, "warming up again on new connections")
                val (again, againSeconds) = stage(run, Stage.warmUp(cell).copy(name = "warmup-again"))
                recorded(run, again, againSeconds) { run.record.warmupAgain = it }?.let { run.warmRate = it }
            }
        }
        if (ctx.stopping()) return Outcome.Interrupted
        if (!app.isAlive()) return run.exited("warm-up")
        return null
    }

    /** The JIT compiler threads' CPU time so far, for a JVM the lab started; unknown (null) for anything else. */
    private fun compiler(app: stackbench.runner.sut.RunningApp): () -> Double? {
        val pid = app.pid?.takeIf { app.sut.capabilities.jvm } ?: return { null }
        return CompilerThreads(os, pid.toInt())::cpuMs
    }

    /**
     * One stage of load that runs until the app is steady ([WarmupWatch]) or its cap: the warm-up at the cell's own
     * load, or `compile-first` before it, the cell's own request at one connection, where the JIT's compiler threads
     * are not starved by busy request threads. Neither is counted.
     */
    private data class Stage(
        val shape: LoadShape, val min: java.time.Duration, val cap: java.time.Duration, val name: String, val oneConnection: Boolean,
        /** The load of a run of a given length, where it depends on it: a scenario's steady-state warm-up ([ScenarioWarmups]). */
        val shapeFor: ((java.time.Duration) -> LoadShape)? = null,
    ) {
        fun shape(length: java.time.Duration): LoadShape = shapeFor?.invoke(length) ?: shape

        companion object {
            fun warmUp(cell: stackbench.runner.plan.Cell) =
                Stage(cell.load.shape, cell.load.settings.warmup, maxOf(cell.load.settings.warmup, cell.load.settings.warmupMax), "warmup", oneConnection = false,
                    shapeFor = (cell.load.shape as? LoadShape.Scenario)?.let { s -> { length -> ScenarioWarmups.shape(s, length) ?: s } })

            /** At least [Defaults.PRIME_MIN], as priming's compile stage: a steady verdict needs a few slices. */
            fun compileFirst(cap: java.time.Duration) = Stage(LoadShape.Closed(1), minOf(Defaults.PRIME_MIN, cap), cap, "compile-first", oneConnection = true)
        }
    }

    /** Runs [stage]; returns its watch and how long it ran, in seconds. */
    private fun stage(run: CellRun, stage: Stage): Pair<WarmupWatch, Double> {
        val (lab, cell, app) = Triple(run.lab, run.cell, run.started())
        val phase = LoadPhase(lab.hosts.load, lab.isolation)
        val group = "${run.ctx.groupPrefix}-${cell.index}-${stage.name}"
        val compiler = compiler(app)
        val counter = app.counter(lab.json) ?: return inSlices(run, stage, compiler)
        val watch = watch(run, counter, compiler, stage)
        val start = System.nanoTime()
        val seconds = phase.runUntil(run.driver.driver, run.driver.executable, run.request(run.dir.resolve(stage.name), LoadLength.Timed(stage.cap), stage.shape(stage.cap)),
            run.placement.driverCpus, group) {
            watch.pollUntilEnding(System.nanoTime() - start, stage.cap) && System.nanoTime() - start >= stage.min.toNanos() || run.ctx.stopping()
        }
        return watch to seconds
    }

    /** At one connection each answer also pays a wake-up, and the rate scatters: as priming, only the compilers and the level decide. */
    private fun watch(run: CellRun, read: () -> stackbench.runner.probe.ServerCount?, compiler: () -> Double?, stage: Stage) = WarmupWatch(read, Defaults.WARMUP_SLICE,
        compiler, run.cell.profile.allottedCpus(run.lab.machineCpus), connections = (stage.shape as? LoadShape.Closed)?.connections?.takeUnless { stage.oneConnection },
        scatterMatters = !stage.oneConnection, compilerOnIdleCpuQuiet = !stage.oneConnection,
        ceiling = if (stage.oneConnection) null else run.record.littleCeilingBeforeWindow(run.placement), throughputDecides = !stage.oneConnection)

    /**
     * Records what [watch] saw over a warm-up stage's [seconds] ([into] keeps the record) and its slices' rates;
     * returns the rate over its last slices (null if it never finished a slice).
     */
    private fun recorded(run: CellRun, watch: WarmupWatch, seconds: Double, into: (stackbench.runner.results.WarmupRecord) -> Unit): Double? {
        into(watch.record(seconds))
        run.record.warmupSteps += watch.slices.map { it.rate }
        return watch.slices.takeLast(WarmupWatch.FLAT_SLICES).takeIf { it.isNotEmpty() }?.let { s -> s.sumOf { it.completed } / s.sumOf { it.seconds } }
    }

    /**
     * The warm-up of an app without a counter of its own: the cell's load in back-to-back driver runs of one slice each,
     * every answer counted by the load generator, the process's CPU read from /proc, a JVM's JIT clock from its
     * perf-data file ([stackbench.runner.probe.PerfData]), and the same watch deciding. Each
     * run opens its connections anew: a few milliseconds a slice that every slice pays alike, so the trend is the app's.
     */
    private fun inSlices(run: CellRun, stage: Stage, compiler: () -> Double?): Pair<WarmupWatch, Double> {
        val (lab, cell, app) = Triple(run.lab, run.cell, run.started())
        val phase = LoadPhase(lab.hosts.load, lab.isolation)
        // the process's CPU from /proc where the lab started one; unknown without
        val proc = app.pid?.let { stackbench.runner.probe.ProcReader(os, it.toInt()) }
        var completed = 0L
        // a JVM the lab started publishes its JIT, GC and class counters in its perf-data file (what jstat reads): the
        // JIT's clock then sees a compiler starved of the CPU, as the built-in apps' CompilationMXBean does
        val jvm = app.sut.capabilities.jvm
        fun reading(): stackbench.runner.probe.ServerCount {
            val counters = if (jvm) app.pid?.let { stackbench.runner.probe.PerfData.counters(it) } else null
            return stackbench.runner.probe.ServerCount(System.currentTimeMillis(), completed,
                processCpuNanos = proc?.read(withThreads = false)?.let { (it.cpuMs * 1e6).toLong() },
                compilationMs = counters?.jitTimeMs?.toLong(), gcMs = counters?.gcTimeMs?.toLong(), loadedClasses = counters?.classesLoaded)
        }
        var latest = reading()
        val watch = watch(run, { latest }, compiler, stage)
        watch.poll()
        val start = System.nanoTime()
        val cap = stage.cap
        var slice = 0
        while (!run.ctx.stopping() && app.isAlive()) {
            val elapsed = System.nanoTime() - start
            if (elapsed >= cap.toNanos() || elapsed >= stage.min.toNanos() && watch.steady()) break
            slice += 1
            val result = phase.run(run.driver.driver, run.driver.executable, run.request(run.dir.resolve("${stage.name}/slice-%03d".format(slice)),
                LoadLength.Timed(Defaults.WARMUP_SLICE), stage.shape(Defaults.WARMUP_SLICE)), run.placement.driverCpus, "${run.ctx.groupPrefix}-${cell.index}-${stage.name}")
            completed += result.responses
            latest = reading()
            watch.poll()
        }
        return watch to (System.nanoTime() - start) / 1e9
    }
}
