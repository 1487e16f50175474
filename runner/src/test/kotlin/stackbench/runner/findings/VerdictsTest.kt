package stackbench.runner.findings

import stackbench.runner.results.staged
import stackbench.runner.cli.Exit
import stackbench.runner.cli.execute
import stackbench.runner.decide.Figure
import stackbench.runner.plan.Planner
import stackbench.runner.results.Fixtures
import stackbench.runner.results.Flag
import stackbench.runner.results.ResourceSummary
import stackbench.runner.results.ResultsStore
import stackbench.runner.results.RunResult
import stackbench.runner.stats.ClaimVerdict.CANNOT_TELL
import stackbench.runner.stats.ClaimVerdict.DIFFERS
import stackbench.runner.stats.ClaimVerdict.HOLDS
import stackbench.runner.stats.Relation
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteParser
import java.nio.file.Files
import java.nio.file.Path
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir

class VerdictsTest {
    /**
     * A run of tomcat and webflux on /cpu/direct?limit=1000, one repetition per value given: each side's
     * throughput per repetition, and the flags each repetition carries.
     */
    private fun run(tomcat: List<Double>, webflux: List<Double>, flags: (String, Int) -> List<Flag> = { _, _ -> emptyList() }): RunResult {
        val reps = maxOf(tomcat.size, webflux.size)
        val plan = Planner.plan(SuiteParser(MachineFacts(2)).parse(
            "name: v\napps: [{stack: tomcat}, {stack: webflux}]\nendpoints: [{kind: cpu, strategies: [direct], limit: 1000}]\nrepetitions: $reps", "v.yaml"))
        val cells = plan.cells.mapNotNull { c ->
            val values = if (c.app.name == "tomcat") tomcat else webflux
            val t = values.getOrNull(c.repetition - 1) ?: return@mapNotNull null
            // p99 varies a little between repetitions (processes): with no spread at all no interval is honest
            Fixtures.cell(c).copy(flags = flags(c.app.name, c.repetition)).staged(measured = Fixtures.load(t, p99 = 10.0 + c.repetition * 0.001))
        }
        return RunResult(run = Fixtures.info(cells.size), environment = Fixtures.environment(), cells = cells)
    }

    private fun claims(rowYaml: String, extra: String = "", figure: String = "throughput") = ClaimsParser.parse("""
        |claims:
        |  - {id: faster, article: "an article (2024)", text: "WebFlux serves more than Tomcat"}
        |comparisons:
        |  - id: t
        |    figure: $figure
        |    run: r
        |    claim-id: faster
        |    a: {name: WebFlux, app: webflux, request: "/cpu/direct?limit=1000"}
        |    b: {name: Tomcat, app: tomcat, request: "/cpu/direct?limit=1000"}
        |$extra    rows:
        |      - $rowYaml
    """.trimMargin(), "c.yaml")

    private fun verdict(r: RunResult, rowYaml: String = "{label: x, published: {a: 1500, b: 1000}}", extra: String = ""): RowVerdict {
        val c = claims(rowYaml, extra).comparisons.single()
        return Verdicts(mapOf("r" to r)).row(c, c.rows.single())
    }

    private val tomcat = listOf(1000.0, 1010.0, 990.0)
    private val webflux = listOf(1500.0, 1510.0, 1490.0)

    @Test
    fun `a row holds when three repetitions a side decide the relation the published figures claim`() {
        val v = verdict(run(tomcat, webflux))
        assertThat(v.claimed).isEqualTo(Relation.HIGHER)
        assertThat(v.decision!!.relation).isEqualTo(Relation.HIGHER)
        assertThat(v.verdict).isEqualTo(HOLDS)
        assertThat(VerdictText.verdictCell(v)).matches("holds \\[1\\.4[0-9]–1\\.5[0-9]]")
    }

    @Test
    fun `a percentile row leaves out windows whose timeouts hide its tail, and names them - the throughput row still counts them`() {
        // WebFlux's three windows each lost 20 requests past the timeout, of ~15,000 sent: more than the tail beyond p99 (150)
        // reaches a tenth of; Tomcat's none
        val base = run(tomcat, webflux)
        val r = base.copy(cells = base.cells.map { c ->
            if (c.app.name == "webflux") c.staged(measured = c.window.measured!!.copy(errors = mapOf("timeout" to 20L))) else c
        })
        val p99 = claims("{label: x, claim: lower}", figure = "p99").comparisons.single()
        val v = Verdicts(mapOf("r" to r)).row(p99, p99.rows.single())
        assertThat(v.verdict).isEqualTo(CANNOT_TELL)
        assertThat(v.why).contains("every repetition flagged timed-out-tail: WebFlux")
        val rate = claims("{label: x, claim: higher}").comparisons.single()
        assertThat(Verdicts(mapOf("r" to r)).row(rate, rate.rows.single()).verdict).isEqualTo(HOLDS)
    }

    @Test
    fun `a row differs when the repetitions decide another relation`() {
        val v = verdict(run(tomcat, listOf(1002.0, 998.0, 1001.0)))
        assertThat(v.decision!!.relation).isEqualTo(Relation.SAME)
        assertThat(v.verdict).isEqualTo(DIFFERS)
    }

    @Test
    fun `one process a side cannot tell, however far apart the figures`() {
        val v = verdict(run(tomcat.take(1), webflux.take(1)))
        assertThat(v.verdict).isEqualTo(CANNOT_TELL)
        assertThat(v.why).isEqualTo("one process")
        assertThat(v.decision!!.why).isEqualTo("1 process a side: an interval needs 2; set processes: 2 or more")
        assertThat(VerdictText.verdictCell(v)).isEqualTo("cannot tell: one process")
        // two a side give an interval, as a suite's comparison has it
        assertThat(verdict(run(tomcat.take(2), webflux.take(2))).decision!!.processesA).isEqualTo(2)
    }

    @Test
    fun `a published run without processes reads each JVM from the cell that started it - a JVM a window decides, one JVM a side cannot tell until re-run`() {
        // restart: cell, before processes were recorded: every window started its own JVM, so each is a process
        val perCell = run(tomcat, webflux).let { r -> r.copy(cells = r.cells.map { it.copy(process = null, appStartedBy = null) }) }
        val v = verdict(perCell)
        assertThat(v.verdict).isEqualTo(HOLDS)
        assertThat(v.decision!!.processesA).isEqualTo(3)
        assertThat(v.decision!!.why).endsWith("(a run before processes were recorded: each JVM read from the cell that started it)")
        // restart: app: every window of a configuration served by the JVM its first window started, one process a side
        val perApp = run(tomcat, webflux).let { r ->
            r.copy(cells = r.cells.map { c -> c.copy(process = null, appStartedBy = r.cells.first { it.configKey == c.configKey }.key) })
        }
        val one = verdict(perApp)
        assertThat(one.decision!!.processesA to one.decision!!.processesB).isEqualTo(1 to 1)
        assertThat(one.verdict).isEqualTo(CANNOT_TELL)
        assertThat(one.why).isEqualTo("not re-run under the process-level method (one process a side)")
        assertThat(one.notRerun).isTrue()
        assertThat(VerdictText.verdictCell(one)).isEqualTo("cannot tell: not re-run under the process-level method (one process a side)")
        // the same single JVM a side in a run that recorded it is not a re-run's business: it says one process
        assertThat(verdict(run(tomcat.take(1), webflux.take(1))).notRerun).isFalse()
        // a row outside every claim is not re-run for its own sake: the same run reads one process a side, no promise
        val unclaimed = claims("{label: x, published: {a: 1500, b: 1000}}").let { cs -> cs.copy(comparisons = cs.comparisons.map { c -> c.copy(rows = c.rows.map { it.copy(claimId = null) }) }) }
            .comparisons.single().let { c -> Verdicts(mapOf("r" to perApp)).row(c, c.rows.single()) }
        assertThat(unclaimed.verdict).isEqualTo(CANNOT_TELL)
        assertThat(unclaimed.notRerun).isFalse()
        assertThat(VerdictText.verdictCell(unclaimed)).isEqualTo("cannot tell: one process")
    }

    @Test
    fun `a flagged cell is left out and named, and too few unflagged repetitions cannot tell`() {
        val slowHost = Flag("host-slow", "the host ran 30 % slower than its pace", "throughput")
        val v = verdict(run(tomcat, webflux) { app, rep -> if (app == "tomcat" && rep >= 2) listOf(slowHost) else emptyList() })
        // the decision rests on the one unflagged Tomcat repetition (process) only
        assertThat(v.decision!!.nB).isEqualTo(1)
        assertThat(v.repetitions).isEqualTo(1)
        assertThat(v.verdict).isEqualTo(CANNOT_TELL)
        assertThat(v.flags).containsExactly("host-slow: Tomcat")
        assertThat(v.why).isEqualTo("one process; left out, flagged host-slow: Tomcat")
    }

    @Test
    fun `a row decides from its unflagged repetitions when enough remain, as the until-decided rounds leave them`() {
        val slowHost = Flag("host-slow", "the host ran 30 % slower than its pace", "throughput")
        // a fourth Tomcat repetition, run by a round after the second was flagged, far off to show it is not counted
        val v = verdict(run(tomcat + 5000.0, webflux) { app, rep -> if (app == "tomcat" && rep == 4) listOf(slowHost) else emptyList() })
        assertThat(v.decision!!.nB).isEqualTo(3)
        assertThat(v.verdict).isEqualTo(HOLDS)
        assertThat(v.flags).containsExactly("host-slow: Tomcat")
        // every repetition flagged: nothing to decide from
        val all = verdict(run(tomcat, webflux) { app, _ -> if (app == "webflux") listOf(slowHost) else emptyList() })
        assertThat(all.decision).isNull()
        assertThat(all.verdict).isEqualTo(CANNOT_TELL)
        assertThat(all.why).isEqualTo("every repetition flagged host-slow: WebFlux")
    }

    @Test
    fun `a table's medians are over the repetitions its verdict counts, and it names the ones left out`() {
        val slowHost = Flag("host-slow", "the host ran 30 % slower than its pace", "throughput")
        val c = claims("{label: x, published: {a: 1500, b: 1000}}").comparisons.single()
        // the fourth Tomcat repetition, far off and flagged, would move the median over all four to 1,005
        val some = ClaimTables(mapOf("r" to run(tomcat + 5000.0, webflux) { app, rep -> if (app == "tomcat" && rep == 4) listOf(slowHost) else emptyList() })).render(c)
        assertThat(some.lines().last()).matches("\\| x \\| 1,500 \\| 1,000 \\| 1.50× \\| 1,500 \\[[0-9,–]+] \\| 1,000 \\[[0-9,–]+] \\(1 of 4 flagged, left out\\) \\| 1.50× \\| .* \\| holds .*")
        assertThat(some.lines().first()).contains("a flagged repetition is left out, as the verdicts leave it")
        // every repetition flagged: shown over them all, marked, and no verdict reads them
        val all = ClaimTables(mapOf("r" to run(tomcat, webflux) { app, _ -> if (app == "webflux") listOf(slowHost) else emptyList() })).render(c)
        assertThat(all.lines().last()).contains("| 1,500 [").contains("(all 3 flagged) | 1,000 [").contains("cannot tell")
        assertThat(all.lines().first()).contains("a side whose every repetition is flagged is shown over them all, marked")
        // one run: its flagged window is shown, marked
        val one = ClaimTables(mapOf("r" to run(listOf(1000.0), listOf(1500.0)) { app, _ -> if (app == "tomcat") listOf(slowHost) else emptyList() })).render(c)
        assertThat(one.lines().last()).contains("| 1,500 | 1,000 (flagged) | 1.50× |")
        assertThat(one.lines().first()).startsWith("*req/s; measured: one run; a flagged window is shown, marked;")
    }

    @Test
    fun `a window measured cold on purpose is not taken out for showing a JIT at work`() {
        val warming = Flag("warming", "the window got faster", "throughput")
        val compiling = Flag("compiling", "the JIT compiled in the window", "throughput")
        val oom = Flag("oom", "killed", "throughput")
        val r = run(tomcat, webflux) { _, _ -> listOf(warming, compiling) }
        val cold = r.copy(cells = r.cells.map { it.copy(load = it.load.copy(warmupMs = 0)) })
        assertThat(verdict(cold).verdict).isEqualTo(HOLDS)
        assertThat(verdict(cold).flags).isEmpty()
        assertThat(verdict(cold).appState).isEmpty()
        // warmed up, the same flags describe the app: its windows count, named, and the row is read again without them
        val warm = verdict(r)
        assertThat(warm.verdict).isEqualTo(HOLDS)
        assertThat(warm.flags).isEmpty()
        assertThat(warm.appState).containsExactly("warming: WebFlux and Tomcat", "compiling: WebFlux and Tomcat")
        assertThat(warm.steady!!.decided).isFalse()
        // cold or not, anything else still does
        val killed = cold.copy(cells = cold.cells.map { it.copy(flags = it.flags + oom) })
        assertThat(verdict(killed).flags).containsExactly("oom: WebFlux and Tomcat")
    }

    @Test
    fun `a counted run is not taken out for its few round trips, since no window cuts its waves`() {
        val few = Flag("few-round-trips", "6.7 round trips a connection", "throughput")
        val unsteady = Flag("unsteady", "the warm-up reached its cap", "throughput")
        val r = run(tomcat, webflux) { _, _ -> listOf(few) }
        val counted = r.copy(cells = r.cells.map { it.copy(load = it.load.copy(requests = 200)) })
        assertThat(verdict(counted).verdict).isEqualTo(HOLDS)
        assertThat(verdict(counted).flags).isEmpty()
        // the verdict's sentence says which flag it counted in, and why
        val result = Verdicts(mapOf("r" to counted)).claims(claims("{label: x, published: {a: 1500, b: 1000}}")).single()
        assertThat(VerdictText.sentence(result)).contains("Counted in despite a flag, as counted runs of 200 requests (each figure is " +
            "the count over the time from the first sent to the last answered, as published, with no window to cut or to be steady; the repetitions " +
            "say whether it repeats): few-round-trips (WebFlux and Tomcat).")
        // nor for a rate that changed inside it: the count is over the whole run
        val shifting = counted.copy(cells = counted.cells.map { it.copy(flags = listOf(Flag("no-steady-state", "8 then 7 req/s", "throughput"))) })
        assertThat(verdict(shifting).verdict).isEqualTo(HOLDS)
        // a timed window with as few round trips is cut among its waves: out
        assertThat(verdict(r).verdict).isEqualTo(CANNOT_TELL)
        // counted or not, anything else still does
        val killed = counted.copy(cells = counted.cells.map { it.copy(flags = it.flags + Flag("client-bound", "wrk at 97 % of its CPUs", "throughput")) })
        assertThat(verdict(killed).flags).containsExactly("client-bound: WebFlux and Tomcat")
        // a flag about the app itself counts the windows, named
        val capped = counted.copy(cells = counted.cells.map { it.copy(flags = it.flags + unsteady) })
        assertThat(verdict(capped).flags).isEmpty()
        assertThat(verdict(capped).appState).containsExactly("unsteady: WebFlux and Tomcat")
    }

    @Test
    fun `the per-second variation counts a window that swings, since the swing is what it measures`() {
        val swings = Flag("no-steady-state", "1,599 req/s, then 696, then 1,601", "throughput")
        val unsteady = Flag("unsteady", "the warm-up reached its cap", "throughput")
        val steady = listOf(1000.0, 1002.0, 998.0, 1001.0, 999.0, 1000.0)
        // each window a little differently: processes with no spread at all give no interval
        fun swinging(rep: Int) = listOf(1000.0, 300.0 + 20 * rep, 1000.0, 1000.0, 700.0, 1000.0)
        fun swingingTomcat(r: RunResult, vararg more: Flag) = r.copy(cells = r.cells.map {
            if (it.app.name == "tomcat") it.copy(flags = listOf(swings) + more).staged(resources = ResourceSummary(cpuShare = 0.3, serverPerSecond = swinging(it.repetition)))
            else it.staged(resources = ResourceSummary(cpuShare = 0.3, serverPerSecond = steady.map { v -> v + (if (v > 1000) it.repetition else -it.repetition) }))
        })
        val r = swingingTomcat(run(tomcat, webflux))
        // WebFlux steadier than Tomcat: its per-second variation lower
        fun stabilityClaims() = claims("{label: x, claim: lower}", figure = "stability")
        val c = stabilityClaims().comparisons.single()
        val v = Verdicts(mapOf("r" to r)).row(c, c.rows.single())
        assertThat(v.flags).isEmpty()
        assertThat(v.verdict).isEqualTo(HOLDS)
        assertThat(v.waived.map { it.code to it.sides }).containsExactly("no-steady-state" to listOf("Tomcat"))
        val result = Verdicts(mapOf("r" to r)).claims(stabilityClaims()).single()
        assertThat(VerdictText.sentence(result)).contains("Counted in despite a flag, as windows whose shape the per-second variation measures " +
            "(its swings are the figure; the JIT's flags, compiling and unsteady, are still the app's state): no-steady-state (Tomcat).")
        // the same windows' mean rate, a figure that assumes one steady level: counted, and read again without them
        assertThat(verdict(r).appState).containsExactly("no-steady-state: Tomcat")
        // a warm-up that never settled is the app's state whatever the figure
        val capped = swingingTomcat(run(tomcat, webflux), unsteady)
        assertThat(Verdicts(mapOf("r" to capped)).row(c, c.rows.single()).appState).containsExactly("unsteady: Tomcat")
    }

    @Test
    fun `flags that do not disqualify leave the verdict alone`() {
        val mild = listOf(Flag("closed-model", "closed-model latency", "latency"), Flag("throttled", "throttled", "throughput"), Flag("shared-cpus", "shared", "throughput"))
        val v = verdict(run(tomcat, webflux) { _, _ -> mild })
        assertThat(v.flags).isEmpty()
        assertThat(v.verdict).isEqualTo(HOLDS)
    }

    @Test
    fun `a claim key overrides what the published figures say, and a row that claims nothing has no verdict`() {
        val same = verdict(run(tomcat, listOf(1002.0, 998.0, 1001.0)), "{label: x, claim: same}")
        assertThat(same.claimed).isEqualTo(Relation.SAME)
        assertThat(same.verdict).isEqualTo(HOLDS)
        val c = ClaimsParser.parse("""
            comparisons:
              - id: t
                figure: throughput
                run: r
                a: {name: WebFlux, app: webflux, request: "/cpu/direct?limit=1000"}
                b: {name: Tomcat, app: tomcat, request: "/cpu/direct?limit=1000"}
                rows: [{label: x, published: {a: 1500, b: 1000}, claim: none}]
        """.trimIndent(), "c.yaml").comparisons.single()
        val none = Verdicts(mapOf("r" to run(tomcat, webflux))).row(c, c.rows.single())
        assertThat(none.claimed).isNull()
        assertThat(none.verdict).isNull()
        assertThat(VerdictText.verdictCell(none)).isEqualTo("–")
    }

    @Test
    fun `a comparison marked paired decides each row paired by round, as a suite comparison with paired true`() {
        val v = verdict(run(tomcat, webflux), extra = "    paired: true\n")
        assertThat(v.comparison.paired).isTrue()
        assertThat(v.decision!!.method).isEqualTo(stackbench.runner.stats.Decisions.PAIRED_ROUNDS)
        assertThat(v.decision!!.processesA).isEqualTo(3)
        assertThat(v.decision!!.relation).isEqualTo(Relation.HIGHER)
        assertThat(v.decision!!.why).contains("paired over 3 rounds")
        assertThat(v.verdict).isEqualTo(HOLDS)
        assertThat(verdict(run(tomcat, webflux)).decision!!.method).isEqualTo(stackbench.runner.stats.Decisions.PROCESS_MEANS)
    }

    @Test
    fun `a claimed size is a one-sided test beside the band, a 15 percent gain differs from doubling`() {
        val size = "    size: {above: 1.5, fixed: 2026-11-23}\n"
        val gain = verdict(run(tomcat, listOf(1150.0, 1160.0, 1140.0)), "{label: x, published: {a: 2000, b: 1000}}", extra = size)
        assertThat(gain.claimed).isEqualTo(Relation.HIGHER)
        assertThat(gain.decision!!.relation).isEqualTo(Relation.HIGHER)
        assertThat(gain.sizeVerdict).isEqualTo(DIFFERS)
        assertThat(gain.verdict).isEqualTo(DIFFERS)
        assertThat(VerdictText.claimCell(gain)).isEqualTo("higher, above 1.50×")

        val doubled = verdict(run(tomcat, listOf(2000.0, 2010.0, 1990.0)), "{label: x, published: {a: 2000, b: 1000}}", extra = size)
        assertThat(doubled.sizeVerdict).isEqualTo(HOLDS)
        assertThat(doubled.verdict).isEqualTo(HOLDS)

        // an interval that holds the bound: higher beyond the band, the size not told
        val near = verdict(run(tomcat, listOf(1300.0, 1500.0, 1750.0)), "{label: x, published: {a: 2000, b: 1000}}", extra = size)
        assertThat(near.decision!!.low!!).isLessThan(1.5)
        assertThat(near.decision!!.high!!).isGreaterThan(1.5)
        assertThat(near.sizeVerdict).isEqualTo(CANNOT_TELL)
        assertThat(near.verdict).isEqualTo(CANNOT_TELL)
    }

    /** A claim tested by one row of each of [runs] ("r1", "r2", ...), each WebFlux against Tomcat. */
    private fun family(n: Int) = ClaimsParser.parse("""
        |claims:
        |  - {id: faster, article: "an article (2024)", text: "WebFlux serves more than Tomcat"}
        |comparisons:
        |  - id: t
        |    figure: throughput
        |    claim-id: faster
        |    a: {name: WebFlux, app: webflux, request: "/cpu/direct?limit=1000"}
        |    b: {name: Tomcat, app: tomcat, request: "/cpu/direct?limit=1000"}
        |    rows:
        ${(1..n).joinToString("\n") { "|      - {label: r$it, run: r$it, claim: higher}" }}
    """.trimMargin(), "c.yaml")

    @Test
    fun `a claim's rows share its 5 percent by Holm's step-down, so a row that decides alone may not decide in a family`() {
        // 1.26x with a spread that clears 1.10 at 95 % but not at 97.5 % (3 processes a side: the interval decides alone)
        val weak = run(tomcat, listOf(1200.0, 1260.0, 1320.0))
        val strong = run(tomcat, webflux)
        val alone = Verdicts(mapOf("r1" to weak)).let { v -> family(1).comparisons.single().let { c -> v.row(c, c.rows.single()) } }
        assertThat(alone.verdict).isEqualTo(HOLDS)
        assertThat(alone.decision!!.confidence).isEqualTo(0.95)

        // beside a row that decides at 97.5 %, the weak one is decided again at 95 % once that one has settled
        val withStrong = family(2)
        val settled = Verdicts(mapOf("r1" to strong, "r2" to weak), withStrong).claims(withStrong).single()
        assertThat(settled.rows.map { it.verdict }).containsExactly(HOLDS, HOLDS)
        assertThat(settled.rows.map { it.share }).containsExactly(2, 1)
        assertThat(settled.rows.map { it.decision!!.confidence }).containsExactly(0.975, 0.95)
        assertThat(settled.rows.map { it.family }).containsExactly(2, 2)

        // two such rows: neither decides at 97.5 %, so neither decides, and the claim cannot tell
        val twoWeak = family(2)
        val none = Verdicts(mapOf("r1" to weak, "r2" to weak), twoWeak).claims(twoWeak).single()
        assertThat(none.rows.map { it.verdict }).containsExactly(CANNOT_TELL, CANNOT_TELL)
        assertThat(none.verdict).isEqualTo(CANNOT_TELL)
        // the tables read the same verdicts as the claim
        val c = twoWeak.comparisons.single()
        assertThat(Verdicts(mapOf("r1" to weak, "r2" to weak), twoWeak).rows(c).map { it.verdict }).containsExactly(CANNOT_TELL, CANNOT_TELL)
        assertThat(VerdictText.multiplicity(listOf(none), emptyList())).contains("Of the 1 claims, 0 decided").contains("none of them decided")
    }

    @Test
    fun `beside a published absolute figure, the measured interval divided by it must lie inside the band`() {
        val inside = Verdicts.againstPublished(listOf(370.0, 367.0, 371.0), 392.0)
        assertThat(inside.relation).isEqualTo(Relation.SAME)
        assertThat(inside.low!!).isGreaterThan(0.9)
        val across = Verdicts.againstPublished(listOf(685.0, 674.0, 733.0), 760.0)
        assertThat(across.relation).isEqualTo(Relation.UNDECIDED)
        assertThat(Verdicts.againstPublished(listOf(0.0, 0.0, 0.0), 7.7).relation).isEqualTo(Relation.LOWER)
        assertThat(Verdicts.againstPublished(listOf(370.0, 368.0), 392.0).relation).isEqualTo(Relation.UNDECIDED)

        val claims = ClaimsParser.parse("""
            comparisons:
              - {id: u, figure: throughput, run: r, rows: [{label: x, a: {app: tomcat, request: "/cpu/direct?limit=1000"}, published: {a: 1000}}]}
        """.trimIndent(), "c.yaml")
        val c = claims.comparisons.single()
        val v = Verdicts(mapOf("r" to run(tomcat, webflux))).row(c, c.rows.single())
        assertThat(v.claimed).isEqualTo(Relation.SAME)
        assertThat(v.verdict).isEqualTo(HOLDS)
    }

    @Test
    fun `a claim differs when any decided row differs, holds when every decided row holds, and cannot tell when none decided`() {
        assertThat(Verdicts.summarise(listOf(HOLDS, HOLDS, CANNOT_TELL))).isEqualTo(HOLDS)
        assertThat(Verdicts.summarise(listOf(HOLDS, DIFFERS, HOLDS))).isEqualTo(DIFFERS)
        assertThat(Verdicts.summarise(listOf(DIFFERS, CANNOT_TELL))).isEqualTo(DIFFERS)
        assertThat(Verdicts.summarise(listOf(CANNOT_TELL, CANNOT_TELL))).isEqualTo(CANNOT_TELL)
        assertThat(Verdicts.summarise(emptyList())).isEqualTo(CANNOT_TELL)
    }

    /** Two comparisons test one claim; the third row rests on one repetition. */
    private val grouped = ClaimsParser.parse("""
        claims:
          - {id: faster, article: "an article (2024)", text: "WebFlux serves more than Tomcat"}
          - {id: other, article: "another (2020)", text: "something `else`"}
        comparisons:
          - id: one
            figure: throughput
            run: r
            claim-id: faster
            a: {name: WebFlux, app: webflux, request: "/cpu/direct?limit=1000"}
            b: {name: Tomcat, app: tomcat, request: "/cpu/direct?limit=1000"}
            rows:
              - {label: three, published: {a: 1500, b: 1000}}
              - {label: single, run: s, published: {a: 1500, b: 1000}}
          - id: two
            figure: p99
            run: r
            claim-id: [other]
            a: {name: WebFlux, app: webflux, request: "/cpu/direct?limit=1000"}
            b: {name: Tomcat, app: tomcat, request: "/cpu/direct?limit=1000"}
            rows: [{label: p99, claim: lower}]
    """.trimIndent(), "c.yaml")
    private val groupedRuns = mapOf("r" to run(tomcat, webflux), "s" to run(tomcat.take(1), webflux.take(1)))
    private val doc = """
        |# F
        |
        |<!-- verdicts --><!-- /verdicts -->
        |
        |<!-- table:one --><!-- /table:one -->
        |
        |<!-- verdict:faster --><!-- /verdict:faster --> Our words stay.
        |
        |<!-- table:two --><!-- /table:two -->
        |
        |<!-- verdict:other --><!-- /verdict:other -->
        |""".trimMargin()

    @Test
    fun `a claim summarises its rows and says how many decided`() {
        val results = Verdicts(groupedRuns).claims(grouped)
        assertThat(results.map { it.claim.id to it.verdict }).containsExactly("faster" to HOLDS, "other" to DIFFERS)
        val faster = results[0]
        assertThat(faster.rows.map { it.verdict }).containsExactly(HOLDS, CANNOT_TELL)
        assertThat(VerdictText.counts(faster)).isEqualTo("holds in 1 of 2 rows; 1 cannot tell")
        val sentence = VerdictText.sentence(faster)
        assertThat(sentence).startsWith("**Verdict: holds.** Holds in 1 of 2 rows; 1 cannot tell. Holds: three 1.50× [1.4")
        assertThat(sentence).endsWith("Claimed: higher (a ÷ b above 1.10×) in every row; geometric means over 1-3 app processes a side (each process its windows' mean).")
        // p99 is the same on both sides in the fixture: a claimed "lower" differs
        assertThat(VerdictText.sentence(results[1])).contains("Differs: p99 1.00× [1.00–1.00] (claimed lower, measured the same)")
    }

    @Test
    fun `a claim over two figures holds only when each holds in some row - half a claim is not the claim`() {
        // "more, and steadier": throughput holds over three processes a side; the p99 row stands on one a side
        fun twoFigures(tail: String) = ClaimsParser.parse("""
            claims:
              - {id: both, article: "an article (2020)", text: "WebFlux serves more than Tomcat, with a lower p99"}
            comparisons:
              - id: more
                figure: throughput
                run: r
                claim-id: both
                a: {name: WebFlux, app: webflux, request: "/cpu/direct?limit=1000"}
                b: {name: Tomcat, app: tomcat, request: "/cpu/direct?limit=1000"}
                rows: [{label: load, published: {a: 1500, b: 1000}}]
              - id: tail
                figure: p99
                run: s
                claim-id: both
                a: {name: WebFlux, app: webflux, request: "/cpu/direct?limit=1000"}
                b: {name: Tomcat, app: tomcat, request: "/cpu/direct?limit=1000"}
                rows: [{label: tail, claim: $tail}]
        """.trimIndent(), "c.yaml")
        val result = Verdicts(groupedRuns).claims(twoFigures("lower")).single()
        assertThat(result.rows.map { it.verdict }).containsExactly(HOLDS, CANNOT_TELL)
        assertThat(result.verdict).isEqualTo(CANNOT_TELL)
        assertThat(result.figuresWithoutHold).containsExactly(Figure.P99)
        assertThat(VerdictText.counts(result)).isEqualTo("holds in 1 of 2 rows, but no row of p99 decided, and the claim asserts it too (1 cannot tell: 1 on one repetition)")
        // once the p99 row decides, it decides the claim: the fixture's p99 is the same on both sides, so a claimed "lower" differs
        val runs = mapOf("r" to run(tomcat, webflux), "s" to run(tomcat, webflux))
        val decided = Verdicts(runs).claims(twoFigures("lower")).single()
        assertThat(decided.rows.map { it.verdict }).containsExactly(HOLDS, DIFFERS)
        assertThat(decided.verdict).isEqualTo(DIFFERS)
        // and when it holds too, so does the claim
        val holds = Verdicts(runs).claims(twoFigures("same")).single()
        assertThat(holds.rows.map { it.verdict }).containsExactly(HOLDS, HOLDS)
        assertThat(holds.verdict).isEqualTo(HOLDS)
        assertThat(holds.figuresWithoutHold).isEmpty()
    }

    @Test
    fun `the glance table has one line per claim, generated with the tables and the verdict sentences`() {
        val out = FindingsUpdate.update(grouped, groupedRuns, doc)
        assertThat(out.problems).isEmpty()
        assertThat(out.typed).isEmpty()
        assertThat(FindingsDoc.section(out.text, FindingsDoc.VERDICTS)).isEqualTo("""
            |
            || article | claim | verdict |
            ||---|---|---|
            || an article (2024) | WebFlux serves more than Tomcat | **holds**: holds in 1 of 2 rows; 1 cannot tell |
            || another (2020) | something `else` | **differs**: differs in 1 of 1 row |
            |""".trimMargin())
        assertThat(out.text).contains("<!-- /verdict:faster --> Our words stay.")
        assertThat(out.text).contains("<!-- verdict:faster -->**Verdict: holds.**")
        val table = FindingsDoc.section(out.text, FindingsDoc.table("one"))!!
        assertThat(table).contains("| claim (±10 %) | verdict |")
        assertThat(table).contains("| single | 1,500 | 1,000 | 1.50× | 1,500 | 1,000 | 1.50× | higher | cannot tell: one process |")
        assertThat(out.changed).contains(FindingsDoc.VERDICTS, FindingsDoc.verdict("faster"), FindingsDoc.table("one"))
        assertThat(FindingsUpdate.update(grouped, groupedRuns, out.text).changed).isEmpty()
    }

    @Test
    fun `the forest plot has a line for every claimed row with a ratio, in words beside its image, where the document asks for it`(@TempDir dir: Path) {
        assertThat(FindingsDoc.section(FindingsUpdate.update(grouped, groupedRuns, doc).text, FindingsDoc.FOREST)).isNull()
        val out = FindingsUpdate.update(grouped, groupedRuns, "<!-- forest --><!-- /forest -->\n$doc")
        assertThat(out.problems).isEmpty()
        assertThat(out.forest.map { it.label }).containsExactly("faster (one): three", "faster (one): single", "other (two): p99")
        val three = out.forest[0]
        assertThat(three.published).isCloseTo(1.5, org.assertj.core.data.Offset.offset(1e-9))
        assertThat(three.verdict).isEqualTo(HOLDS)
        assertThat(three.low!!).isLessThan(three.measured).isGreaterThan(1.1)
        val block = FindingsDoc.section(out.text, FindingsDoc.FOREST)!!
        assertThat(block).contains("![Every claimed row").contains("(findings-forest.png)")
            .contains("| faster (one): three | 1.50× | 1.50× [").contains("| 0.90×–1.10× | holds |")
        // the picture's chart: the report's forest, a row a line, coloured by verdict, the article's ratio a ring
        val chart = Forest.chart(out.forest)!!
        assertThat(chart.forest).isTrue()
        assertThat(chart.y.categories).containsExactly("other (two): p99", "faster (one): single", "faster (one): three")
        assertThat(chart.series.map { it.name }).contains("holds", "the article")
        val dot = chart.series.first { it.name == "holds" }.data.first { it.y == 2.0 }
        assertThat(dot.x).isEqualTo(three.measured)
        assertThat(dot.low).isEqualTo(three.low)
        assertThat(dot.band).isEqualTo(three.threshold)
        assertThat(chart.series.single { it.name == "the article" }.data.first { it.y == 2.0 }.x).isCloseTo(1.5, org.assertj.core.data.Offset.offset(1e-9))
        assertThat(Forest.page(out.forest, "test")).contains("id=\"forest\"").contains("sb-data")
    }

    @Test
    fun `each article gets one line - what it said, its claims' verdicts on the runs' hardware, what to do`() {
        val claims = grouped.copy(articles = listOf(Article("an article (2024)", "WebFlux is faster", "measure your own")))
        assertThat(FindingsUpdate.update(claims, groupedRuns, doc).problems)
            .containsExactly("claims.yaml lists articles but the document has no place for their lines: add <!-- articles --><!-- /articles -->")
        val out = FindingsUpdate.update(claims, groupedRuns, "<!-- articles --><!-- /articles -->\n$doc")
        assertThat(out.problems).isEmpty()
        assertThat(FindingsDoc.section(out.text, FindingsDoc.ARTICLES)).isEqualTo(
            "\n- **an article (2024)** said WebFlux is faster → measured on 2 vCPUs (test CPU), openjdk 25: of its 1 claim, 1 holds → measure your own\n")
    }

    @Test
    fun `an article whose runs name their apps' JDKs reads the JDKs the JVMs reported, oldest first`() {
        val claims = grouped.copy(articles = listOf(Article("an article (2024)", "WebFlux is faster", "measure your own")))
        val named = groupedRuns.mapValues { (_, run) ->
            run.copy(cells = run.cells.mapIndexed { i, c ->
                c.staged(runtime = if (i % 2 == 0) stackbench.runner.results.RuntimeRecord(requested = "25", version = "25.0.3+9-LTS", feature = 25)
                else stackbench.runner.results.RuntimeRecord(requested = "17", version = "17.0.15+6-Debian-1deb12u1", feature = 17))
            })
        }
        val out = FindingsUpdate.update(claims, named, "<!-- articles --><!-- /articles -->\n$doc")
        assertThat(FindingsDoc.section(out.text, FindingsDoc.ARTICLES)).contains("measured on 2 vCPUs (test CPU), JDK 17.0.15, JDK 25.0.3: of its 1 claim")
    }

    @Test
    fun `a claim fixed before its run cannot tell until the run is published, and only a run without a suite is a problem`() {
        val c = claims("{label: x, published: {a: 1500, b: 1000}}")
        val page = "<!-- verdicts --><!-- /verdicts -->\n\n<!-- table:t --><!-- /table:t -->\n\n<!-- verdict:faster --><!-- /verdict:faster -->\n"
        val waiting = FindingsUpdate.update(c, emptyMap(), page, pending = setOf("r"))
        assertThat(waiting.problems).isEmpty()
        val row = waiting.verdicts.single().rows.single()
        assertThat(row.verdict).isEqualTo(CANNOT_TELL)
        assertThat(row.why).isEqualTo("not run yet (docs/runs/r is not published)")
        assertThat(FindingsDoc.section(waiting.text, FindingsDoc.table("t"))).contains("| x | 1,500 | 1,000 | 1.50× | not run | not run | – | higher | cannot tell: not run yet (docs/runs/r is not published) |")
        assertThat(FindingsUpdate.update(c, emptyMap(), page).problems).containsExactly("no run 'r' was given")
        // a published run from before the row: its suite plans the cell now (a re-run will measure it), or it does not (a typo)
        val older = run(listOf(1000.0, 1010.0, 990.0), listOf(1500.0, 1490.0, 1510.0))
        val moved = claims("{label: x, published: {a: 1500, b: 1000}}").let { cl -> cl.copy(comparisons = cl.comparisons.map { cmp ->
            cmp.copy(rows = cmp.rows.map { r -> r.copy(a = r.a.copy(request = "/cpu/direct?limit=5000")) }) }) }
        val before = FindingsUpdate.update(moved, mapOf("r" to older), page) { it.request == "/cpu/direct?limit=5000" }
        assertThat(before.problems).isEmpty()
        assertThat(before.verdicts.single().rows.single().why).isEqualTo("not run yet (docs/runs/r has no cell of webflux /cpu/direct?limit=5000)")
        assertThat(FindingsUpdate.update(moved, mapOf("r" to older), page).problems)
            .containsExactly("table t: no cell matches r: webflux /cpu/direct?limit=5000")
    }

    @Test
    fun `a claim written after its run began is not tested on it`() {
        val r = run(listOf(1000.0, 1010.0, 990.0), listOf(1500.0, 1490.0, 1510.0))
        fun written(day: String) = claims("{label: x, published: {a: 1500, b: 1000}}").let { c -> c.copy(claims = c.claims.map { it.copy(fixed = java.time.LocalDate.parse(day)) }) }
        val late = written("2999-01-01")
        val row = Verdicts(mapOf("r" to r), late).claims(late).single().rows.single()
        assertThat(row.verdict).isEqualTo(CANNOT_TELL)
        assertThat(row.why).startsWith("the claim was written (2999-01-01) after its run began (").endsWith("): its re-run decides it")
        assertThat(row.decision!!.relation).describedAs("the ratio is still shown").isEqualTo(Relation.HIGHER)
        val early = written("2000-01-01")
        assertThat(Verdicts(mapOf("r" to r), early).claims(early).single().rows.single().verdict).isEqualTo(HOLDS)
        assertThat(runCatching { ClaimsParser.parse("claims:\n  - {id: a, article: b, text: c, fixed: someday}\ncomparisons: []\n", "c.yaml") }.exceptionOrNull())
            .hasMessageContaining("fixed").hasMessageContaining("'someday' is not a day")
    }

    @Test
    fun `a claim without a place, and a verdict typed by hand outside the markers, are reported`() {
        val out = FindingsUpdate.update(grouped, groupedRuns, doc.replace("<!-- verdict:other --><!-- /verdict:other -->", "**Verdict: holds.** We say so."))
        assertThat(out.problems).containsExactly("claim 'other' has no verdict in the document: add <!-- verdict:other --><!-- /verdict:other -->")
        assertThat(out.typed).singleElement().asString().contains("line 11: **Verdict: holds.**")
    }

    @Test
    fun `findings --check fails on a hand-edited verdict and passes once regenerated`(@TempDir dir: Path) {
        groupedRuns.forEach { (name, r) -> ResultsStore(dir.resolve("runs/$name")).write(r) }
        val claimsFile = dir.resolve("claims.yaml")
        Files.writeString(claimsFile, """
            claims:
              - {id: faster, article: "an article (2024)", text: "WebFlux serves more than Tomcat"}
            comparisons:
              - id: one
                figure: throughput
                run: r
                claim-id: faster
                a: {name: WebFlux, app: webflux, request: "/cpu/direct?limit=1000"}
                b: {name: Tomcat, app: tomcat, request: "/cpu/direct?limit=1000"}
                rows: [{label: three, published: {a: 1500, b: 1000}}]
        """.trimIndent())
        val docFile = dir.resolve("findings.md")
        Files.writeString(docFile, "<!-- verdicts --><!-- /verdicts -->\n\n<!-- table:one --><!-- /table:one -->\n\n<!-- verdict:faster --><!-- /verdict:faster -->\n")
        val args = arrayOf("findings", "--claims", claimsFile.toString(), "--runs", dir.resolve("runs").toString(), "--doc", docFile.toString())
        assertThat(execute(args + "--check")).isEqualTo(Exit.CELL_FAILED)
        assertThat(execute(args)).isEqualTo(Exit.OK)
        assertThat(execute(args + "--check")).isEqualTo(Exit.OK)
        val generated = Files.readString(docFile)
        assertThat(generated).contains("**Verdict: holds.**")

        Files.writeString(docFile, generated.replace("<!-- verdict:faster -->**Verdict: holds.**", "<!-- verdict:faster -->**Verdict: differs.**"))
        assertThat(execute(args + "--check")).isEqualTo(Exit.CELL_FAILED)
        Files.writeString(docFile, generated.replace("| **holds**:", "| **cannot tell**:"))
        assertThat(execute(args + "--check")).isEqualTo(Exit.CELL_FAILED)
        Files.writeString(docFile, "$generated\n**This claim holds** as we typed it.\n")
        assertThat(execute(args + "--check")).isEqualTo(Exit.CELL_FAILED)
    }

    @Test
    fun `claims yaml keys are checked, an unknown claim id, a claim no row tests, a list of the wrong length`() {
        val found = (runCatching {
            ClaimsParser.parse("""
                claims:
                  - {id: lonely, article: a, text: t}
                comparisons:
                  - id: x
                    figure: throughput
                    run: r
                    claim-id: [nobody, ~]
                    claim: [higher]
                    a: {app: t, request: "/cpu/direct?limit={limit}"}
                    b: {app: u, request: "/cpu/direct?limit={limit}"}
                    over: {limit: [1, 2]}
                    threshold: 1.5
            """.trimIndent(), "c.yaml")
        }.exceptionOrNull() as stackbench.runner.yaml.SuiteException).problems.map { it.render() }
        assertThat(found).anySatisfy { assertThat(it).contains("comparisons[0].claim-id: 'nobody' names no claim") }
        assertThat(found).anySatisfy { assertThat(it).contains("comparisons[0].claim: has 1 value(s) but the comparison has 2 row(s)") }
        assertThat(found).anySatisfy { assertThat(it).contains("the claim 'lonely' has no row that tests it") }
        assertThat(found).anySatisfy { assertThat(it).contains("comparisons[0].threshold: '1.5' is not a number in 0..1") }
    }
}
