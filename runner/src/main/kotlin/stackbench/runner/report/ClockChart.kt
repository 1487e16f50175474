package stackbench.runner.report

import stackbench.runner.results.CellResult
import stackbench.runner.results.Settlings
import stackbench.runner.results.SliceRecord

/**
 * One clock for a cell: its app's answers per second through priming (when this cell's process was primed for it),
 * the compile-first stage (the cell's own request at one connection, when the suite asks for it), the warm-up and
 * the measured window, the JIT compiler threads' CPU slice by slice, and where the lab placed the
 * steady state and why the warm-up ended, so that the steady-state decision can be checked by eye, and how the app's
 * throughput went over the warm-up (its class and figure, [Settlings]: settled after T s, still rising, falling at X % a
 * minute, oscillating), in the title. The quiet waits
 * between phases are left out of the clock (each phase starts where the last ended); the window has no JIT line,
 * only its total (`jvm.compilerCpuMs`).
 */
internal object ClockChart {
    fun of(c: CellResult, view: RunView, id: String): ChartSpec? {
        val w = c.warmup.record ?: return null
        val style = view.style(c.app.name)
        val answers = mutableListOf<Point>()
        val priming = mutableListOf<Point>()
        val compiling = mutableListOf<Point>()
        val jit = mutableListOf<Point>()
        val marks = mutableListOf<Mark>()
        var t = 0.0
        fun slices(slices: List<SliceRecord>, into: MutableList<Point>, seconds: Double) {
            slices.forEach { s ->
                into += Point(t + s.endSeconds, s.rate)
                jit += Point(t + s.endSeconds, s.compileShare?.times(100))
            }
            into += Point(t + seconds, null) // a gap: the next phase is another load
            jit += Point(t + seconds, null)
            t += seconds
        }
        c.start.prime?.takeIf { c.appStartedBy == null }?.let { p ->
            marks += Mark(0.0, "priming")
            slices(p.warmup.slices, priming, p.warmup.seconds)
            p.saturation?.let { slices(it.slices, priming, it.seconds) }
        }
        c.warmup.compileFirst?.let { f ->
            marks += Mark(t, "compiling first (${f.endedBy})")
            slices(f.slices, compiling, f.seconds)
        }
        marks += Mark(t, "warm-up")
        val warmStart = t
        slices(w.slices, answers, w.seconds)
        w.steadyAfterSeconds?.let { marks += Mark(warmStart + it, "steady from") }
        marks += Mark(t, "window (warm-up: ${w.endedBy})")
        c.window.measured?.perSecond?.forEach { answers += Point(t + it.second, it.successes.toDouble()) }
        val series = listOfNotNull(
            Series("answers/s", "line", style.color, style.symbol, data = answers),
            priming.takeIf { p -> p.any { it.y != null } }?.let { Series("priming on /noop, answers/s", "line", style.color, style.symbol, "dotted", it, faint = true) },
            compiling.takeIf { p -> p.any { it.y != null } }?.let { Series("compiling first at one connection, answers/s", "line", style.color, style.symbol, "dashed", it, faint = true) },
            jit.takeIf { p -> p.any { it.y != null } }?.let { Series("JIT compiler threads' CPU, % of the allotment", "line", "#555555", "none", "dashed", it, rightAxis = true) },
        )
        val settling = Settlings.of(c)
        return ChartSpec(id, "${c.key}: priming, warm-up and window on one clock" + (settling?.let { " (warm-up: ${it.label()})" } ?: ""),
            (settling?.let { "the warm-up ${it.text}; " } ?: "") +
                "quiet waits between phases left out; the JIT line is the compiler threads' CPU slice by slice (the window's is only a total)",
            Axis("seconds of load, s"), Axes.y("answers/s", series.filter { !it.rightAxis }, log = true), series, xMarks = marks,
            y2 = if (series.any { it.rightAxis }) Axis("JIT CPU, %") else null)
    }
}
