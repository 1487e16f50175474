package stackbench.runner.results

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

class SittingsTest {
    private val commit = "7a29a2a442df3d61d5870437e2be2c0cdd1f7f93"
    private val intel = Fixtures.environment().copy(hostname = "lab-1", cpuModel = "Intel(R) Xeon(R) Processor ", gitCommit = commit, gitDirty = false)
    private val amd = intel.copy(hostname = "lab-2", cpuModel = "AMD EPYC")
    private fun run(env: Environment, sittings: List<Sitting> = emptyList()) =
        RunResult(run = Fixtures.info().copy(startedAt = "2026-12-06T22:00:00Z", sittings = sittings), environment = env)

    @Test
    fun `a new run's one sitting is where it began, and a resume adds its own after the earlier ones`() {
        val first = Sittings.next(null, intel, "2026-12-06T22:00:00Z")
        assertThat(first).containsExactly(Sitting("2026-12-06T22:00:00Z", "lab-1", "Intel(R) Xeon(R) Processor", commit, false))
        val second = Sittings.next(run(intel, first), amd, "2026-12-07T18:49:00Z")
        assertThat(second.map { it.cpuModel }).containsExactly("Intel(R) Xeon(R) Processor", "AMD EPYC")
        assertThat(Sittings.hosts(second + second.first())).containsExactly("Intel(R) Xeon(R) Processor", "AMD EPYC")
    }

    @Test
    fun `a record from before sittings were recorded gives its environment, from when it began, as its one sitting`() {
        val old = run(intel)
        assertThat(Sittings.of(old)).containsExactly(Sitting("2026-12-06T22:00:00Z", "lab-1", "Intel(R) Xeon(R) Processor", commit, false))
        assertThat(Sittings.next(old, intel, "2026-12-07T18:49:00Z").map { it.startedAt }).containsExactly("2026-12-06T22:00:00Z", "2026-12-07T18:49:00Z")
    }

    @Test
    fun `what changed between sittings is named - host, commit, tree - and nothing when nothing did`() {
        val a = Sittings.of(intel, "2026-12-06T22:00:00Z")
        assertThat(Sittings.differences(a, a.copy(startedAt = "2026-12-07T18:49:00Z"))).isEmpty()
        val b = Sittings.of(amd.copy(gitCommit = "81c59ea0000000000000", gitDirty = true), "2026-12-07T18:49:00Z")
        assertThat(Sittings.differences(a, b)).containsExactly(
            "host lab-1 (Intel(R) Xeon(R) Processor) → lab-2 (AMD EPYC)", "commit 7a29a2a442 → 81c59ea000", "tree clean → uncommitted changes",
        )
    }

    @Test
    fun `a run is published only when every sitting ran from a clean tree at the commit it began at`() {
        val a = Sittings.of(intel, "2026-12-06T22:00:00Z")
        assertThat(Sittings.unpublishable(listOf(a))).isNull()
        // another host is no bar: the record and the pages name it
        assertThat(Sittings.unpublishable(listOf(a, Sittings.of(amd, "2026-12-07T18:49:00Z")))).isNull()
        assertThat(Sittings.unpublishable(listOf(a.copy(gitDirty = true, gitChanges = listOf(" M suites/x.yaml")))))
            .isEqualTo("was made from a tree with uncommitted changes at 7a29a2a442: M suites/x.yaml")
        assertThat(Sittings.unpublishable(listOf(a.copy(gitCommit = null)))).isEqualTo("records no git commit (made outside a clone?)")
        assertThat(Sittings.unpublishable(listOf(a, a.copy(startedAt = "2026-12-07T18:49:00Z", gitCommit = "81c59ea0000000000000"))))
            .isEqualTo("sitting 2 of 2 (2026-12-07 18:49) was made at commit 81c59ea000, where the run began at 7a29a2a442 (resume a run in the clone it began in)")
        assertThat(Sittings.unpublishable(listOf(a, a.copy(startedAt = "2026-12-07T18:49:00Z", gitDirty = true))))
            .isEqualTo("sitting 2 of 2 (2026-12-07 18:49) was made from a tree with uncommitted changes at 7a29a2a442")
        assertThat(Sittings.unpublishable(emptyList())).isEqualTo("records no sitting")
    }
}
