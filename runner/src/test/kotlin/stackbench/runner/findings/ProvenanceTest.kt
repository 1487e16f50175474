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
            "| run | id | started (UTC) | host | commit | tree |",
            "|---|---|---|---|---|---|",
            "| `alpha` | alpha-1 | 2026-11-28 23:07 | AMD EPYC, 2 CPUs | 1057c644aa | **uncommitted changes** |",
            "| `beta` | beta-1 | 2026-11-28 23:07 | AMD EPYC, 2 CPUs | b754b35699 | **uncommitted changes**: `M docs/findings.md`, `?? a\\|b.txt`, `M x`, and 1 more |",
            "| `gamma` | gamma-1 | 2026-11-28 23:07 | AMD EPYC, 2 CPUs | none | **not recorded** |",
            "| `zeta` | zeta-1 | 2026-11-28 23:07 | AMD EPYC, 2 CPUs | 7a29a2a442 | clean |",
        )
    }

    @Test
    fun `when every run is clean the sentence says so`() {
        val block = Provenance.block(mapOf("a" to run("a-1", "7a29a2a442df", false)))
        assertThat(block.lines().first()).isEqualTo("All 1 runs below were made from a clean tree at the commit each names.")
    }
}
