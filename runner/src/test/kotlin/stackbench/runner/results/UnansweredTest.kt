package stackbench.runner.results

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.load.LoadFixtures.recorded
import stackbench.runner.load.LoadFixtures.request
import stackbench.runner.load.OhaDriver
import stackbench.runner.plan.LoadShape
import stackbench.runner.suite.LoadLength
import java.time.Duration

class UnansweredTest {
    private fun oha(case: String, shape: LoadShape, length: LoadLength, timeout: Duration): LoadResult {
        val dir = recorded("oha", case)
        return OhaDriver().parse(request(dir, shape, length, timeout = timeout), dir.resolve("stdout.txt"), dir.resolve("stderr.txt"), 99.0)
    }

    @Test
    fun `a window whose every request was aborted at the deadline fails, naming them by kind`() {
        val m = oha("no-answer", LoadShape.Closed(5), LoadLength.Timed(Duration.ofSeconds(1)), Duration.ofSeconds(5))
        assertThat(Unanswered.failure(m, 200))
            .isEqualTo("the measured window had no successful answer (200): 5 requests sent, 0 answered successfully, 5 aborted unanswered (5 deadline)")
    }

    @Test
    fun `a window of refused connections fails, with its errors by kind`() {
        val m = oha("refused", LoadShape.Closed(2), LoadLength.Timed(Duration.ofSeconds(1)), Duration.ofSeconds(1))
        assertThat(Unanswered.failure(m, 200)).isEqualTo(
            "the measured window had no successful answer (200): 53874 requests sent, 0 answered successfully, " +
                "53872 failed (53872 connect), 2 aborted unanswered (2 deadline)",
        )
    }

    @Test
    fun `a window with answers neither fails nor is flagged`() {
        val m = oha("closed-timed", LoadShape.Closed(2), LoadLength.Timed(Duration.ofSeconds(2)), Duration.ofSeconds(2))
        assertThat(Unanswered.failure(m, 200)).isNull()
        assertThat(Unanswered.flag(m)).isNull()
        assertThat(Flags.of(m, null, false, "cgroup-v1").map { it.code }).doesNotContain("unanswered")
    }

    @Test
    fun `a window that answered under half the requests it sent is flagged unanswered, and out of comparisons`() {
        val m = Fixtures.load(4.0).copy(inFlightAtEnd = 100, aborted = mapOf("deadline" to 100L), errors = mapOf("timeout" to 20L))
        val flag = Flags.of(m, null, false, "cgroup-v1").single { it.code == "unanswered" }
        assertThat(flag.message).isEqualTo(
            "only 25 % of the requests sent were answered successfully: 160 requests sent, 40 answered successfully, " +
                "20 failed (20 timeout), 100 aborted unanswered (100 deadline)",
        )
        assertThat(flag.code).isIn(Flags.DISQUALIFYING)
    }

    @Test
    fun `an open model's estimated queue is named apart from the driver's aborts`() {
        val m = Fixtures.load(0.1, model = "open").copy(inFlightAtEnd = 50, aborted = mapOf("deadline" to 10L))
        assertThat(Unanswered.flag(m)!!.message).isEqualTo(
            "only 2 % of the requests sent were answered successfully: 51 requests sent, 1 answered successfully, " +
                "10 aborted unanswered (10 deadline), 50 in flight or queued when the window closed",
        )
    }
}
