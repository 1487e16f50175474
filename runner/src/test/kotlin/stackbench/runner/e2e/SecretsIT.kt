package stackbench.runner.e2e

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.BeforeAll
import org.junit.jupiter.api.Order
import org.junit.jupiter.api.TestInstance
import org.junit.jupiter.api.io.TempDir
import org.junit.jupiter.api.parallel.ResourceLock
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.ValueSource
import stackbench.runner.results.CellStatus
import stackbench.runner.results.ResultsStore
import stackbench.runner.suite.Secrets
import stackbench.runner.testing.Background
import stackbench.runner.testing.Needs
import stackbench.runner.testing.RunnerCommand
import stackbench.runner.testing.SharedMachine
import stackbench.runner.testing.TinyJar
import java.nio.file.Files
import java.nio.file.Path
import java.util.UUID
import java.util.concurrent.TimeUnit

/**
 * `${env:NAME}` end to end: a token in a header, a key in a URL's query and in an app's argument, an app's
 * environment variable, all taken from the runner's environment. The service (own-app/TinyServer.java) answers 200 only
 * when both arrive, so a verified cell and a window without errors show the values were used, by the lab's own client
 * and by the load driver; its stdout echoes both, as an access log would. Then not one file of the run's folder, nor the
 * history it was indexed in, holds either value, raw or percent-encoded.
 */
@Background
@Order(2)
@ResourceLock(SharedMachine.LANE_2)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SecretsIT {
    private val home = RunnerCommand.home
    private lateinit var dir: Path
    private lateinit var tiny: Path

    @BeforeAll
    fun build(@TempDir temp: Path) {
        dir = temp
        tiny = TinyJar.build(dir)
    }

    private fun installed(driver: String) = listOf(home.resolve(".tools/bin/$driver"), Path.of("/usr/bin/$driver"), Path.of("/usr/local/bin/$driver"))
        .any { Files.isExecutable(it) }

    @ParameterizedTest
    @ValueSource(strings = ["wrk", "oha", "k6"])
    fun `values from the environment reach the app and the driver and are written nowhere`(driver: String) {
        Needs.that(installed(driver), "$driver is not installed")
        val token = "tok-${UUID.randomUUID()}"
        val key = "k3y/${UUID.randomUUID().toString().take(8)}+x"
        val suite = dir.resolve("secrets-$driver.yaml")
        Files.writeString(suite, """
            |name: secrets-$driver
            |apps:
            |  - name: tiny
            |    jar: $tiny
            |    args: ["{port}", "--key=${'$'}{env:SB_IT_KEY}"]
            |    env: {TINY_TOKEN: "${'$'}{env:SB_IT_TOKEN}"}
            |    ready: /ready
            |profile: {cpus: none, cpuset: [${Runtime.getRuntime().availableProcessors() - 1}], memory: 512MiB}
            |endpoints:
            |  - kind: http
            |    name: guarded
            |    path: /guarded?key=${'$'}{env:SB_IT_KEY}
            |    headers: {Authorization: "Bearer ${'$'}{env:SB_IT_TOKEN}"}
            |    check: {json: /guarded, equals: "true"}
            |load: {driver: $driver, connections: 4, warmup: 2s, warmup-max: 6s, duration: 2s, timeout: 5s}
            |repetitions: 1
            |""".trimMargin())
        val out = dir.resolve("run-$driver")
        val history = dir.resolve("history-$driver.sqlite")
        val console = dir.resolve("run-$driver.txt")
        val builder = ProcessBuilder(RunnerCommand.of("run", suite.toString(), "--out", out.toString(), "--no-install", "--history", history.toString()))
            .redirectErrorStream(true).redirectOutput(console.toFile())
        builder.environment()["SB_IT_TOKEN"] = token
        builder.environment()["SB_IT_KEY"] = key
        val process = builder.start()
        assertThat(process.waitFor(240, TimeUnit.SECONDS)).`as`("the run finished in time").isTrue()
        val text = Files.readString(console)
        println("--- secrets-$driver\n$text")
        assertThat(process.exitValue()).`as`(text).isZero()

        val cell = ResultsStore.read(out).cells.single()
        assertThat(cell.status).`as`(cell.reason ?: "").isEqualTo(CellStatus.OK)
        assertThat(cell.verification!!.ok).`as`("the lab's own request carried both values (else 401)").isTrue()
        assertThat(cell.window.measured!!.throughput).isPositive()
        assertThat(cell.window.measured!!.errorCount).`as`("every request of $driver carried both values").isZero()

        val values = listOf(token, key, Secrets.percentEncode(key))
        val files = Files.walk(out).use { s -> s.filter { Files.isRegularFile(it) }.toList() } + listOf(history)
        assertThat(files.size).isGreaterThan(5)
        for (file in files) {
            val bytes = String(Files.readAllBytes(file), Charsets.ISO_8859_1)
            for (v in values) assertThat(bytes).`as`("$file holds a value from the environment").doesNotContain(v)
        }
        val echoed = Files.walk(out).use { s -> s.filter { it.fileName.toString() == "app.log" }.toList() }
        assertThat(echoed.map { Files.readString(it) }.joinToString()).`as`("the app's echo, written back as placeholders")
            .contains("Authorization: Bearer \${env:SB_IT_TOKEN}")
        assertThat(Files.readString(out.resolve("results.json"))).contains("\${env:SB_IT_TOKEN}")
        assertThat(text).doesNotContain(token)
    }
}
