package stackbench.apps.contract

import stackbench.runner.testing.SharedMachine
import org.junit.jupiter.api.parallel.ResourceLock
import stackbench.runner.testing.Background
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.contract.DownstreamService
import stackbench.contract.ErrorBody
import java.nio.file.Files
import java.time.Duration
import java.util.concurrent.TimeUnit

/** The downstream service's jar as the runner uses it: its command line, its answers, its stall mode. */
@Background
@ResourceLock(SharedMachine.LANE_1)
class DownstreamJarIT {

    @Test
    fun `--help prints the usage and a wrong option exits 2 saying what is wrong`() {
        val help = JavaProcess.start("downstream-help", Stacks.downstreamJar, emptyList(), listOf("--help"))
        help.use { assertThat(it.awaitExit()).isEqualTo(0) }
        assertThat(Files.readString(help.log)).contains("Usage: java -jar downstream.jar").contains("--stall-every=MS")

        val wrong = JavaProcess.start("downstream-wrong", Stacks.downstreamJar, emptyList(), listOf("--port=x"))
        wrong.use { assertThat(it.awaitExit()).isEqualTo(2) }
        assertThat(Files.readString(wrong.log)).contains("downstream: --port must be a whole number, was 'x'")
    }

    @Test
    fun `it answers delays, bad input and health, and in stall mode holds the requests arriving in the window`() {
        val port = JavaProcess.freePort()
        val args = listOf("--port=$port", "--stall-every=1000", "--stall-window=1000", "--stall-hold=250")
        JavaProcess.start("downstream-stall", Stacks.downstreamJar, listOf("-Xmx128m"), args).use { process ->
            Http("http://127.0.0.1:$port").use { http ->
                JavaProcess.awaitUp(process, Duration.ofSeconds(30)) { http.get("/health").status == 200 }
                val held = http.get("/delay?ms=50")
                assertThat(held.status).isEqualTo(200)
                assertThat(held.body).isEqualTo(DownstreamService.body(50))
                assertThat(held.millis).`as`("50 ms asked + 250 ms held").isGreaterThanOrEqualTo(300)
                val bad = http.get("/delay?ms=60001")
                assertThat(bad.status).isEqualTo(400)
                assertThat(bad.json<ErrorBody>().parameter).isEqualTo("ms")
                assertThat(http.get("/nothing").status).isEqualTo(404)
            }
            assertThat(process.logTail()).contains("downstream: listening on http://127.0.0.1:$port (stall: every 1000ms, window 1000ms, hold 250ms")
        }
    }
}
