package stackbench.runner.e2e

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Order
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import org.junit.jupiter.api.parallel.ResourceLock
import stackbench.runner.results.CellStatus
import stackbench.runner.results.ResultsStore
import stackbench.runner.testing.Background
import stackbench.runner.testing.Needs
import stackbench.runner.testing.RunnerCommand
import stackbench.runner.testing.SharedMachine
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit

/**
 * The example own service's orders under suites/own-app-mix.yaml (wrk) and own-app-mix-k6.yaml (k6), briefly
 * (`--scale 0.2 --processes 1`): 1,000 ids fed from a file and a named 70/30 read/write mix, one cell each, whose
 * results hold each request's figures apart and whose verify.txt names every request it sent.
 */
@Background
@Order(3)
@ResourceLock(SharedMachine.LANE_2)
class NamedMixIT {
    private val home = Path.of(System.getProperty("stackbench.home"))

    private fun run(suite: String, dir: Path) {
        Needs.that(Files.isRegularFile(home.resolve("examples/own-app/quarkus/target/own-app-quarkus.jar")), "the example Quarkus jar is not built")
        val out = dir.resolve(suite)
        val console = dir.resolve("$suite.txt")
        val process = ProcessBuilder(RunnerCommand.of("run", home.resolve("suites/$suite.yaml").toString(), "--out", out.toString(), "--no-install",
            "--scale", "0.2", "--processes", "1")).redirectErrorStream(true).redirectOutput(console.toFile()).start()
        assertThat(process.waitFor(240, TimeUnit.SECONDS)).`as`("$suite finished in time").isTrue()
        println("--- $suite\n${Files.readString(console)}")
        val cell = ResultsStore.read(out).cells.single()
        assertThat(cell.status).`as`(cell.reason ?: "").isEqualTo(CellStatus.OK)
        assertThat(cell.configKey).isEqualTo("quarkus/http-orders/c8")
        val load = cell.window.measured!!
        load.requests.forEach { println("$suite ${it.name} (${it.request}): ${it.responses} answers, ${it.successes} ok, %.1f req/s, p50 %.2f ms, p99 %.2f ms, errors ${it.errors}"
            .format(it.throughput, it.latency.p50, it.latency.p99)) }
        val (read, write) = load.requests
        assertThat(read.name to write.name).isEqualTo("read" to "write")
        assertThat(read.request).isEqualTo("GET /orders/{ids.id}")
        assertThat(read.successes).isPositive()
        assertThat(write.successes).isPositive()
        assertThat(read.statusCodes.keys).containsExactly("200")
        assertThat(write.statusCodes.keys).containsExactly("201")
        assertThat(read.errorCount + write.errorCount).isZero()
        // 70/30 by weight: the reads' share of the answers well inside 55..85 %
        assertThat(read.responses.toDouble() / (read.responses + write.responses)).isBetween(0.55, 0.85)
        assertThat(read.latency.p50).isNotNull()
        assertThat(write.latency.p99).isNotNull()
        assertThat(read.successes + write.successes).isEqualTo(load.successes)
        val verify = Files.readString(out.resolve(cell.folder).resolve("verify.txt")) // the folder as recorded: cells/NNN-...
        assertThat(verify).contains("read GET /orders/1 -> 200", "read GET /orders/2 -> 200", "write POST /orders -> 201")
        println(verify)
        assertThat(verify.lines().filter { it.startsWith("read ") }).hasSizeBetween(3, 5).allMatch { it.endsWith(" ok") }
    }

    @Test
    fun `wrk sends the fed mix and reads each request apart`(@TempDir dir: Path) {
        Needs.that(listOf("/usr/bin/wrk", "/usr/local/bin/wrk").any { Files.isExecutable(Path.of(it)) }, "wrk is not installed")
        run("own-app-mix", dir)
    }

    @Test
    fun `k6 sends the fed mix and reads each request apart`(@TempDir dir: Path) {
        Needs.that(Files.isExecutable(home.resolve(".tools/bin/k6")), "k6 is not installed in .tools/bin")
        run("own-app-mix-k6", dir)
    }
}
