package stackbench.runner.run

import oshi.software.os.OperatingSystem
import stackbench.runner.plan.LoadShape
import stackbench.runner.probe.CompilerThreads
import stackbench.runner.suite.Defaults
import stackbench.runner.suite.LoadLength

/**
 * Warm up: a new app process is first primed on `/noop` ([Priming]); then the cell's own load runs for at least
 * the warm-up, and until the app is steady ([WarmupWatch]: compilation quiet, throughput without trend) or the
 * warm-up's maximum is reached. Its figures are not counted. A cell without warm-up measures a cold JVM on purpose
 * (a container started for the test): no priming either; nor a cell whose suite says `prime: false`. In: the app, the driver. Out: the priming, the warm-up's
 * record and slices, and its rate for the window's length.
 */
class WarmUpStep(private val os: OperatingSystem, private val quiet: QuietWait) : CellStep {
    override val name = "warm up"

    override fun run(run: CellRun): Outcome? {
        val (cell, ctx, app) = Triple(run.cell, run.ctx, run.started())
        val ready = run.driver
        // priming drives the built-in apps' /noop: an own app has none, and its cell's own load does the warming
        if (app.prime == null && !cell.load.warmup.isZero && cell.load.prime && app.sut.capabilities.primeEndpoint) {
            ctx.listener.phase(cell, "priming")
            app.prime = Priming(run.lab).prime(cell, ctx, app, run.placement, run.threads, ready, run.dir, compiler(app))
            if (ctx.stopping()) return Outcome.Interrupted
            if (!app.isAlive()) return run.exited("priming")
            quiet.await(app, cell)
        }
        run.record.prime = app.prime
        if (!cell.load.warmup.isZero) {
            run.probes = ctx.probes.start(run.probeTarget())
            ctx.listener.phase(cell, "warming up")
            run.warmRate = warmUp(run)
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

    /** The warm-up's load; returns the app's own rate over the last slices (null if it never finished a slice). */
    private fun warmUp(run: CellRun): Double? {
        val (lab, cell, app) = Triple(run.lab, run.cell, run.started())
        val phase = LoadPhase(lab.hosts.load, lab.isolation)
        val group = "${run.ctx.groupPrefix}-${cell.index}-warmup"
        val compiler = compiler(app)
        val counter = app.counter(lab.json) ?: return warmUpInSlices(run, compiler)
        val watch = watch(run, counter, compiler)
        val start = System.nanoTime()
        val cap = maxOf(cell.load.warmup, cell.load.warmupMax)
        val seconds = phase.runUntil(run.driver.driver, run.driver.executable, run.request(run.dir.resolve("warmup"), LoadLength.Timed(cap)), run.placement.driverCpus, group) {
            watch.pollUntilEnding(System.nanoTime() - start, cap) && System.nanoTime() - start >= cell.load.warmup.toNanos() || run.ctx.stopping()
        }
        return recorded(run, watch, seconds)
    }

    private fun watch(run: CellRun, read: () -> stackbench.runner.probe.ServerCount?, compiler: () -> Double?) = WarmupWatch(read, Defaults.WARMUP_SLICE,
        compiler, run.cell.profile.allottedCpus(run.lab.machineCpus), connections = (run.cell.load.shape as? LoadShape.Closed)?.connections)

    /** Records what [watch] saw over the warm-up's [seconds]; returns the rate over its last slices (null if it never finished a slice). */
    private fun recorded(run: CellRun, watch: WarmupWatch, seconds: Double): Double? {
        run.record.warmupRecord = watch.record(seconds)
        run.record.warmupSteps += watch.slices.map { it.rate }
        return watch.slices.takeLast(WarmupWatch.FLAT_SLICES).takeIf { it.isNotEmpty() }?.let { s -> s.sumOf { it.completed } / s.sumOf { it.seconds } }
    }

    /**
     * The warm-up of an app without a counter of its own: the cell's load in back-to-back driver runs of one slice each,
     * every answer counted by the load generator, the process's CPU read from /proc, a JVM's JIT clock from its
     * perf-data file ([stackbench.runner.probe.PerfData]), and the same watch deciding. Each
     * run opens its connections anew: a few milliseconds a slice that every slice pays alike, so the trend is the app's.
     */
    private fun warmUpInSlices(run: CellRun, compiler: () -> Double?): Double? {
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
        val watch = watch(run, { latest }, compiler)
        watch.poll()
        val start = System.nanoTime()
        val cap = maxOf(cell.load.warmup, cell.load.warmupMax)
        var slice = 0
        while (!run.ctx.stopping() && app.isAlive()) {
            val elapsed = System.nanoTime() - start
            if (elapsed >= cap.toNanos() || elapsed >= cell.load.warmup.toNanos() && watch.steady()) break
            slice += 1
            val result = phase.run(run.driver.driver, run.driver.executable, run.request(run.dir.resolve("warmup/slice-%03d".format(slice)),
                LoadLength.Timed(Defaults.WARMUP_SLICE)), run.placement.driverCpus, "${run.ctx.groupPrefix}-${cell.index}-warmup")
            completed += result.responses
            latest = reading()
            watch.poll()
        }
        return recorded(run, watch, (System.nanoTime() - start) / 1e9)
    }
}
