package stackbench.runner.findings

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.results.Fixtures
import stackbench.runner.results.RunResult

class ProvenanceTest {
    private fun run(id: String, commit: String?, dirty: Boolean?, changes: List<String>? = null) = RunResult(
        run = Fixtures.info().copy(id = id, startedAt = "2026-11-28T23:07:15.334Z"),
        environment = Fixtures.environment().copy(cpuModel = "AMD EPYC ", gitCommit = commit, gitDirty = dirty, gitChanges = changes),
    )

    @Test
    fun `each run names its commit, and a dirty or unrecorded tree is marked with the paths it recorded`() {
        val block = Provenance.block(mapOf(
            "zeta" to run("zeta-1", "7a29a2a442df3d61d5870437e2be2c0cdd1f7f93", false),
            "alpha" to run("alpha-1", "1057c644aaaaaaaaaaaa", true),
            "beta" to run("beta-1", "b754b35699df50b1e401", true, listOf(" M docs/findings.md", "?? a|b.txt", " M x", " M y")),
            "gamma" to run("gamma-1", null, null),
        ))
        assertThat(block.lines()).containsExactly(
            "3 of the 4 runs below were made from a tree with uncommitted changes (or record no commit), so their commit alone does not " +
                "reproduce them; which paths differed is recorded only since 2026-11-29 (`environment.gitChanges`). `findings-run --publish` no " +
                "longer publishes such a run; these stay until re-run.",
            "",
            "Their 0 cells took under a minute of machine time together (each cell from its app's start to its stop, summed; a run resumed over several sittings counts each).",
            "",
            "| run | id | started (UTC) | host | commit | tree | cells | machine time |",
            "|---|---|---|---|---|---|--:|--:|",
            "| `alpha` | alpha-1 | 2026-11-28 23:07 | AMD EPYC, 2 CPUs | 1057c644aa | **uncommitted changes** | 0 | – |",
            "| `beta` | beta-1 | 2026-11-28 23:07 | AMD EPYC, 2 CPUs | b754b35699 | **uncommitted changes**: `M docs/findings.md`, `?? a\\|b.txt`, `M x`, and 1 more | 0 | – |",
            "| `gamma` | gamma-1 | 2026-11-28 23:07 | AMD EPYC, 2 CPUs | none | **not recorded** | 0 | – |",
            "| `zeta` | zeta-1 | 2026-11-28 23:07 | AMD EPYC, 2 CPUs | 7a29a2a442 | clean | 0 | – |",
        )
    }

    @Test
    fun `a run's machine time is its cells' spans summed, across the sittings of a resumed run`() {
        val planned = stackbench.runner.plan.Planner.plan(stackbench.runner.suite.SuiteParser(stackbench.runner.suite.MachineFacts(2))
            .parse("name: v\napps: [{stack: tomcat}]\nendpoints: [{kind: noop}]", "v.yaml")).cells.first()
        val cell = Fixtures.cell(planned)
        val cells = listOf(
            cell.copy(startedAt = "2026-12-06T23:00:00Z", finishedAt = "2026-12-06T23:04:30Z"),
            cell.copy(startedAt = "2026-12-07T10:00:00Z", finishedAt = "2026-12-07T11:01:00Z"),
            cell.copy(startedAt = null, finishedAt = "2026-12-07T11:02:00Z"),
        )
        val r = run("a-1", "7a29a2a442df", false).copy(cells = cells)
        assertThat(Provenance.machineTime(r)).isEqualTo(java.time.Duration.ofSeconds(65 * 60 + 30))
        assertThat(Provenance.hours(java.time.Duration.ofSeconds(65 * 60 + 30))).isEqualTo("1 h 06 min")
        assertThat(Provenance.hours(java.time.Duration.ofSeconds(29))).isEqualTo("under a minute")
        assertThat(Provenance.block(mapOf("a" to r)).lines()).contains(
            "Their 3 cells took 1 h 06 min of machine time together (each cell from its app's start to its stop, summed; a run resumed over several sittings counts each).",
            "| `a` | a-1 | 2026-11-28 23:07 | AMD EPYC, 2 CPUs | 7a29a2a442 | clean | 3 | 1 h 06 min |",
        )
    }

    @Test
    fun `a run resumed over sittings names each host and commit it met, and is dirty when any sitting was`() {
        val first = stackbench.runner.results.Sitting("2026-11-28T23:07:15Z", "lab-1", "Intel(R) Xeon(R) Processor", "7a29a2a442df", false)
        val resumed = run("r-1", "7a29a2a442df", false).let { r ->
            r.copy(run = r.run.copy(sittings = listOf(first, first.copy(startedAt = "2026-11-29T10:00:00Z", hostname = "lab-2", cpuModel = "AMD EPYC"))))
        }
        val dirtyLater = run("d-1", "7a29a2a442df", false).let { r ->
            r.copy(run = r.run.copy(sittings = listOf(first, first.copy(startedAt = "2026-11-29T10:00:00Z", gitCommit = "81c59ea0aa", gitDirty = true, gitChanges = listOf(" M x")))))
        }
        val lines = Provenance.block(mapOf("r" to resumed, "d" to dirtyLater)).lines()
        assertThat(lines.first()).startsWith("1 of the 2 runs below were made from a tree with uncommitted changes")
        assertThat(lines).contains(
            "| `r` | r-1 | 2026-11-28 23:07 | Intel(R) Xeon(R) Processor / AMD EPYC, 2 CPUs (2 sittings) | 7a29a2a442 | clean | 0 | – |",
            "| `d` | d-1 | 2026-11-28 23:07 | Intel(R) Xeon(R) Processor, 2 CPUs (2 sittings) | 7a29a2a442, 81c59ea0aa | **uncommitted changes**: `M x` | 0 | – |",
        )
    }

    @Test
    fun `when every run is clean the sentence says so`() {
        val block = Provenance.block(mapOf("a" to run("a-1", "7a29a2a442df", false)))
        assertThat(block.lines().first()).isEqualTo("All 1 runs below were made from a clean tree at the commit each names.")
    }
}
