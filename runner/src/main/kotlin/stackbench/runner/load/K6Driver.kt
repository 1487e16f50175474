package stackbench.runner.load

import stackbench.runner.catalog.DriverCatalog
import stackbench.runner.plan.LoadShape
import stackbench.runner.results.LatencyStats
import stackbench.runner.results.LoadResult
import stackbench.runner.results.NamedLoad
import stackbench.runner.results.PercentilePoint
import stackbench.runner.suite.LoadLength
import java.nio.file.Files
import java.nio.file.Path

/**
 * k6 1.8.1. The command runs a script [K6Script] writes into the phase's output folder (its only input), quiet
 * and without its summary, with every sample as CSV on stdout (`--out csv=fileName=/dev/stdout,timeFormat=unix_milli`,
 * only the tags the reader needs), its log on stderr: so a run on another machine needs only the script shipped
 * and its stdout and stderr piped back.
 *
 * What k6's output means (read from its source, lib/netext/httpext, lib/executor, internal/output/csv):
 * - Each request writes one `http_req_duration` sample, stamped with the time it ended (ms), its value the
 *   time from sending to the last byte (connecting and DNS excluded), its status (0 when there was no answer)
 *   and `error_code`. A request without answer is an error of the kind its code names ([K6Samples.errorKind]);
 *   an answer whose status is not the expected one (k6's `expected_response` false) is `errors["status"]`.
 * - Latency figures cover every answer, from one HdrHistogram of every request's duration.
 * - Arrival-rate executors do not delay an iteration that finds every user busy: they drop it and count it in
 *   `dropped_iterations` ([LoadResult.dropped]). So latency is not corrected for coordinated omission
 *   (`latencyCorrected` false); the overload shows as dropped iterations instead.
 * - The window is the load's duration, or the span from the earliest request's start to the latest's end when
 *   longer: iterations running when the duration ends get one timeout to finish (`gracefulStop`), as a user would.
 */
class K6Driver : LoadDriver {
    override val kind = DriverCatalog.K6

    override fun command(request: DriveRequest, executable: Path): List<String> {
        Files.createDirectories(request.outputDir)
        val script = scriptFile(request)
        Files.writeString(script, K6Script.render(request))
        return listOf(
            executable.toString(), "run", "--quiet", "--summary-mode=disabled", "--no-usage-report", "--no-color",
            "--system-tags", K6Samples.SYSTEM_TAGS.joinToString(","),
            "--out", "csv=fileName=/dev/stdout,timeFormat=unix_milli",
            script.toString(),
        )
    }

    override fun parse(request: DriveRequest, stdout: Path, stderr: Path, wallSeconds: Double): LoadResult {
        if (!Files.isRegularFile(stdout) || Files.size(stdout) == 0L) {
            throw IllegalStateException("k6 wrote no samples on stdout ($stdout)\n${LoadSupport.outputTail(stdout, stderr)}")
        }
        val samples = Files.newBufferedReader(stdout).use { K6Samples.read(it) }
        return result(request, samples, wallSeconds)
    }

    companion object {
        const val SCRIPT_FILE = "script.js"

        /** The spectrum's percentiles, below the maximum (100). */
        val SPECTRUM = listOf(50.0, 75.0, 90.0, 95.0, 99.0, 99.9, 99.99)

        fun scriptFile(request: DriveRequest): Path = request.outputDir.resolve(SCRIPT_FILE)

        /** The common model of one run's (or several instances' merged) [samples]; [wallSeconds] when they hold no request. */
        fun result(request: DriveRequest, samples: K6Samples, wallSeconds: Double, notes: List<String> = emptyList()): LoadResult {
            val all = notes.toMutableList()
            // the load's own length when timed (an open run's last iteration starts 1/rate before its end), or longer
            // when requests outlasted it; a counted run, its span
            val planned = (request.length as? LoadLength.Timed)?.let { LoadSupport.seconds(it.duration) } ?: 0.0
            val span = if (samples.requests > 0) (samples.lastEndMs - samples.firstStartMs) / 1000.0 else 0.0
            val window = if (samples.requests > 0) maxOf(0.001, span, planned) else wallSeconds
            val successes = samples.expected
            val errors = sortedMapOf<String, Long>().apply { putAll(samples.failures) }
            if (samples.responses > successes) errors["status"] = samples.responses - successes

            val series = PerSecondSeries(request.expectedStatus)
            samples.forEachAnswer { end, us, ok -> series.add((end - samples.firstStartMs) / 1000.0, us / 1e6, ok) }
            val perSecond = if (series.count > 0) series.seconds(window) else emptyList()
            val excluded = if (series.count > 0) series.excluded(window) else 0
            if (series.count > 0 && window >= 1.0 && excluded > 0) {
                all += "perSecond covers the ${perSecond.size} whole seconds of a %.3f s window; ".format(window) +
                    "$excluded answers that ended in the last partial second are not in it"
            }
            if (samples.dropped > 0) {
                all += "${samples.dropped} iterations dropped: due while every user was busy, never sent (the generator's overload, k6's dropped_iterations)"
            }
            if (samples.responses > successes) {
                all += "latency figures cover every answer, ${samples.responses - successes} without the expected status included"
            }
            if (samples.responses == 0L) all += "no answers: no latency figures"
            all += "latency is k6's http_req_duration (sending to last byte, connecting excluded), not corrected for coordinated omission"

            val h = samples.histogram
            fun ms(p: Double): Double? = if (h.totalCount == 0L) null else h.getValueAtPercentile(p) / 1000.0
            val max = if (h.totalCount == 0L) null else h.maxValue / 1000.0
            val shape = request.shape
            return LoadResult(
                driver = DriverCatalog.K6.id,
                model = when (shape) {
                    is LoadShape.Closed -> "closed"
                    is LoadShape.Open -> "open"
                    is LoadShape.Scenario -> "scenario"
                },
                latencyCorrected = false,
                wallSeconds = window,
                responses = samples.responses,
                successes = successes,
                throughput = if (window > 0) successes / window else 0.0,
                statusCodes = samples.statusCodes.toSortedMap(),
                errors = errors,
                dropped = samples.dropped,
                latency = LatencyStats(
                    min = if (h.totalCount == 0L) null else h.minValue / 1000.0,
                    mean = if (h.totalCount == 0L) null else h.mean / 1000.0,
                    stdev = series.stdevMs(),
                    p50 = ms(50.0), p90 = ms(90.0), p99 = ms(99.0), p999 = ms(99.9), p9999 = ms(99.99),
                    max = max,
                ),
                spectrum = if (max == null) emptyList() else SPECTRUM.map { PercentilePoint(it, ms(it)!!) } + PercentilePoint(100.0, max),
                perSecond = perSecond,
                notes = all,
                requests = named(request, samples, window),
            )
        }

        /**
         * Each named request's figures over the [window]: a mix's requests, or a scenario's steps (when it has more than
         * one), in the suite's order; empty for one request.
         */
        fun named(request: DriveRequest, samples: K6Samples, window: Double): List<NamedLoad> {
            val traffic = request.traffic
            val names: List<Pair<String, String>> = when {
                traffic?.mixed == true -> traffic.requests.map { it.name to it.line }
                request.scenarioCalls.size > 1 -> request.scenarioCalls.map { c -> (c.name ?: "${c.method} ${c.url.rawPath}") to "${c.method} ${c.url.rawPath}" }.distinctBy { it.first }
                else -> return emptyList()
            }
            return names.map { (name, line) ->
                val s = samples.byName[name] ?: K6Samples.empty()
                val h = s.histogram
                fun ms(p: Double): Double? = if (h.totalCount == 0L) null else h.getValueAtPercentile(p) / 1000.0
                val max = if (h.totalCount == 0L) null else h.maxValue / 1000.0
                val errors = sortedMapOf<String, Long>().apply { putAll(s.failures) }
                if (s.responses > s.expected) errors["status"] = s.responses - s.expected
                NamedLoad(
                    name = name, request = line, responses = s.responses, successes = s.expected,
                    throughput = if (window > 0) s.expected / window else 0.0,
                    statusCodes = s.statusCodes.toSortedMap(), errors = errors,
                    latency = LatencyStats(
                        min = if (h.totalCount == 0L) null else h.minValue / 1000.0,
                        mean = if (h.totalCount == 0L) null else h.mean / 1000.0,
                        p50 = ms(50.0), p90 = ms(90.0), p99 = ms(99.0), p999 = ms(99.9), p9999 = ms(99.99), max = max,
                    ),
                    spectrum = if (max == null) emptyList() else SPECTRUM.map { PercentilePoint(it, ms(it)!!) } + PercentilePoint(100.0, max),
                )
            }
        }
    }
}
