package stackbench.runner.report

import stackbench.runner.results.Efficiency
import stackbench.runner.results.CellResult
import stackbench.runner.results.Format
import stackbench.runner.results.Sample
import stackbench.runner.stats.Estimate

/** The report's charts, from a [RunView]: only charts that have data to draw. */
class Charts(private val view: RunView) {

    /** Requests/s and p99 against the swept parameter, one line per app configuration and strategy. */
    fun overview(panel: Panel): List<ChartSpec> = listOfNotNull(
        sweep(panel, "throughput", "Requests/s", "requests/s", null) { it.throughput },
        sweep(panel, "p99", "p99 latency", "p99 latency, ms", panel.latencyKind) { it.p99 },
        sweep(panel, "per-cpu-second", "Requests per CPU-second", "requests per CPU-second of the app",
            "what the throughput cost: requests over the CPU-seconds the app used (its CPU share × the CPUs allotted)") { it.perCpuSecond },
    )

    private fun sweep(panel: Panel, what: String, title: String, yName: String, note: String?, figure: (Config) -> Estimate?): ChartSpec? {
        val x = panel.x
        // the swept values evenly spaced, as they were chosen (8, 64, 512 connections), or one bar per configuration
        val xValues = panel.xValues
        val categories = if (x == null) panel.series.map(panel::label) else xValues.map(Format::plain)
        val series = panel.series.flatMap { s ->
            val style = view.style(s.app)
            val configs = panel.configs.filter { SeriesKey(it.app, it.strategy) == s }
            fun at(c: Config, i: Int) = x?.value(c.first)?.let { xValues.indexOf(it).toDouble() } ?: i.toDouble()
            val index = categories.indexOf(panel.label(s))
            val medians = configs.mapNotNull { c -> figure(c)?.let { e -> Point(at(c, index), e.median, spread(e)) } }.sortedBy { it.x }
            val reps = configs.flatMap { c -> figure(c)?.takeIf { it.n > 1 }?.values?.map { Point(at(c, index), it, "one repetition") } ?: emptyList() }
            listOfNotNull(
                medians.takeIf { it.isNotEmpty() }?.let { Series(panel.label(s), if (x == null) "bar" else "line", style.color, style.symbol, view.dash(s.strategy), it) },
                reps.takeIf { it.isNotEmpty() }?.let { Series(panel.label(s), "scatter", style.color, style.symbol, data = it, faint = true) },
            )
        }
        if (series.none { it.data.isNotEmpty() }) return null
        val xAxis = Axis(x?.axisName ?: "configuration", "category", categories)
        val by = if (x == null) "" else " by ${x.name}"
        val reps = if (view.repetitions > 1) "${if (x == null) "bars" else "lines"}: median of the repetitions; dots: each repetition" else null
        return ChartSpec("c-$what-${panel.id}", "$title$by · ${panel.title}", listOfNotNull(note, reps).joinToString("; ").ifEmpty { null },
            xAxis, Axes.y(yName, series, log = x != null), series, tooltip = if (x == null) "item" else "axis")
    }

    private fun spread(e: Estimate): String? = when {
        e.n < 2 -> null
        else -> "median of ${e.n}, range ${Format.ms(e.min)}–${Format.ms(e.max)}"
    }

    /** Per group of configurations at one swept value: spectrum, figures over time, resources over time. */
    fun details(group: Group): List<ChartSpec> {
        val cells = group.configs.flatMap { it.ok }
        val id = group.id
        val note = group.panel.latencyKind
        return listOfNotNull(
            chart(cells, "c-spectrum-$id", "Latency by percentile", note, Axis("percentile", "percentile"), Axis("latency, ms", "log"), group) { c ->
                c.window.measured!!.spectrum.filter { it.percentile >= 50.0 && it.percentile <= Percentiles.MAX }
                    .map { Point(Percentiles.x(it.percentile), it.ms.takeIf { v -> v > 0 }, "p" + Format.plain(it.percentile)) }
            },
            chart(cells, "c-rps-$id", "Requests/s over time", "successful answers in each second of the measured window", Axis("second of the measured window, s"), Axis("requests/s"), group) { c ->
                c.window.measured!!.perSecond.map { Point(it.second.toDouble(), it.successes.toDouble()) }
            },
            chart(cells, "c-p99t-$id", "p99 latency over time", "$note, each second", Axis("second of the measured window, s"), Axis("p99 latency, ms", "log"), group) { c ->
                c.window.measured!!.perSecond.mapNotNull { s -> s.p99?.takeIf { it > 0 }?.let { Point(s.second.toDouble(), it) } }
            },
            chart(cells, "c-cpu-$id", "App CPU", "share of the CPU the app was allotted", Axis("seconds into the measured window, s"), Axis("app CPU, % of allotment"), group) { c ->
                rates(c.resources.samples) { it.cgroupCpuMs ?: it.cpuMs }.map { (t, perMs) -> Point(t, perMs * 100 / allotted(c)) }
            },
            chart(cells, "c-rss-$id", "App memory (RSS)", null, Axis("seconds into the measured window, s"), Axis("RSS, MiB"), group) { c ->
                c.resources.samples.mapNotNull { s -> s.rssBytes?.let { Point(s.tMs / 1000.0, it / 1048576.0) } }
            },
            chart(cells, "c-threads-$id", "App threads", null, Axis("seconds into the measured window, s"), Axis("threads"), group) { c ->
                c.resources.samples.mapNotNull { s -> s.threads?.let { Point(s.tMs / 1000.0, it.toDouble()) } }
            },
            chart(cells, "c-ctx-$id", "Context switches", "voluntary + involuntary, summed over the app's threads", Axis("seconds into the measured window, s"), Axis("context switches/s"), group) { c ->
                rates(c.resources.samples) { s -> if (s.voluntaryCtx == null && s.involuntaryCtx == null) null else ((s.voluntaryCtx ?: 0) + (s.involuntaryCtx ?: 0)).toDouble() }
                    .map { (t, perMs) -> Point(t, perMs * 1000) }
            },
        )
    }

    /** One line per cell; repetitions of a configuration share its name (one legend entry) and differ in the tooltip. */
    private fun chart(cells: List<CellResult>, id: String, title: String, note: String?, x: Axis, y: Axis, group: Group, points: (CellResult) -> List<Point>): ChartSpec? {
        val multi = group.configs.any { it.cells.size > 1 }
        val series = cells.mapNotNull { c ->
            val data = points(c).takeIf { p -> p.any { it.y != null } } ?: return@mapNotNull null
            val style = view.style(c.app.name)
            val name = group.panel.label(SeriesKey(c.app.name, c.endpoint.strategy))
            Series(name, "line", style.color, style.symbol, view.dash(c.endpoint.strategy), data, detail = if (multi) "repetition ${c.repetition}" else null)
        }
        return if (series.isEmpty()) null else ChartSpec(id, title, note, x, if (y.type == "log") Axes.y(y.name, series, log = true) else y, series)
    }

    /** A cumulative counter's rate between consecutive samples, at each interval's midpoint: (seconds, per ms). */
    private fun rates(samples: List<Sample>, counter: (Sample) -> Double?): List<Pair<Double, Double>> =
        samples.sortedBy { it.tMs }.zipWithNext().mapNotNull { (a, b) ->
            val ca = counter(a) ?: return@mapNotNull null
            val cb = counter(b) ?: return@mapNotNull null
            val dt = (b.tMs - a.tMs).toDouble()
            if (dt <= 0) null else (a.tMs + b.tMs) / 2000.0 to (cb - ca) / dt
        }

    private fun allotted(c: CellResult): Double = Efficiency.allottedCpus(c.profile)

    /** Startup per app configuration: the median over its cells, each cell a dot. */
    fun startup(): ChartSpec? {
        val byApp = view.configs.flatMap { it.cells }.filter { it.start.startup != null }.groupBy { it.app.name }
        if (byApp.isEmpty()) return null
        val apps = view.apps.filter { it in byApp }
        val series = apps.flatMapIndexed { i, app ->
            val style = view.style(app)
            val seconds = byApp.getValue(app).map { it.start.startup!!.toHealthyMs / 1000 }
            val median = stackbench.runner.stats.Statistics.median(seconds)
            listOfNotNull(
                Series(app, "bar", style.color, style.symbol, data = listOf(Point(i.toDouble(), median, "median of ${Format.plural(seconds.size, "start")}"))),
                seconds.takeIf { it.size > 1 }?.let { s -> Series(app, "scatter", style.color, style.symbol, data = s.map { Point(i.toDouble(), it, "one start") }, faint = true) },
            )
        }
        return ChartSpec("c-startup", "Startup: process start to healthy", "every cell starts its app afresh; bars: median, dots: each start",
            Axis("app configuration", "category", apps), Axis("seconds to a 200 from /actuator/health"), series, tooltip = "item")
    }

    /** Capacity searches: p99 against offered rate, one line per search, the target as a line. */
    fun capacity(): List<ChartSpec> = view.result.searches.groupBy { it.endpoint }.entries.mapIndexed { i, (endpoint, searches) ->
        val multi = searches.any { it.repetition > 1 }
        val series = searches.map { s ->
            val style = view.style(s.app)
            Series(s.app, "line", style.color, style.symbol, detail = if (multi) "repetition ${s.repetition}" else null, data = s.steps.sortedBy { it.rate }.map { st ->
                Point(st.rate, st.p99Ms?.takeIf { it > 0 }, (if (st.held) "held the target" else "broke the target") + (st.errorRate?.let { ", errors ${Format.percent(it, 2)}" } ?: ""))
            })
        }
        val marks = searches.map { it.sloP99Ms }.distinct().map { Mark(it, "target p99 ${Format.ms(it)} ms") }
        val yAxis = Axes.y("p99 latency, ms", series + Series("target", "line", "", "", data = marks.map { Point(0.0, it.value) }), log = true)
        ChartSpec("c-capacity-$i-${Html.slug(endpoint)}", "Capacity search · $endpoint", "open-model latency (from intended send time) at each offered rate tried",
            Axis("offered rate, req/s"), yAxis, series, marks)
    }.filter { c -> c.series.any { s -> s.data.any { it.y != null } } }
}
