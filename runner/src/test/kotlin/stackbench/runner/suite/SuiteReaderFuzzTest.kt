package stackbench.runner.suite

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.yaml.SuiteException
import java.nio.file.Path
import kotlin.io.path.isDirectory
import kotlin.io.path.listDirectoryEntries
import kotlin.io.path.readBytes
import kotlin.random.Random

/**
 * Fuzzes the suite reader: [INPUTS] inputs from a fixed seed, made three ways (YAML documents generated from the
 * suite's own keys and hostile values, the shipped suites mutated byte- and line-wise, random bytes), each read as
 * a suite file is read (bytes -> [SuiteText] -> [SuiteParser]). Every input must give a suite or a
 * [SuiteException] with problems; any other exception or error fails the test with the input that caused it.
 */
class SuiteReaderFuzzTest {
    companion object {
        const val INPUTS = 3_000
        const val SEED = 14L
        private val dir: Path = listOf(Path.of("../suites"), Path.of("suites")).first { it.isDirectory() }
    }

    private val parser = SuiteParser(MachineFacts(cpus = 2))
    private val seeds: List<ByteArray> = dir.listDirectoryEntries("*.yaml").sorted().map { it.readBytes() }

    private val keys = listOf("name", "description", "apps", "stack", "boot", "virtual-threads", "properties", "jvm-args", "profile", "cpus",
        "cpuset", "memory", "heap", "endpoints", "kind", "strategies", "clients", "limit", "batch", "delay", "method", "load", "driver",
        "model", "connections", "rates", "duration", "requests", "warmup", "warmup-max", "timeout", "threads", "find", "slo", "p99",
        "errors", "start-rate", "max-rate", "precision", "repetitions", "downstream", "stall", "every", "window", "hold", "restart",
        "compare", "a", "b", "system-properties")
    private val values = listOf("tomcat", "webflux", "noop", "cpu", "io", "downstream", "todo", "all", "oha", "wrk", "open", "closed",
        "capacity", "none", ".nan", ".inf", "-.inf", "NaN", "Infinity", "-1", "0", "0.001", "1e309", "99999999999999999999", "1", "2",
        "30s", "100ms", "876000h", "9999999999999999999999ms", "1GiB", "75%", "1e-400", "~", "null", "''", "\"\\u0000\"", "*x", "&x a",
        "!!binary AAAA", "!!map {}", "[]", "{}", "[1, [2, [3]]]", "{? [a]: b}", "0x10", "1_000", "yes", "0o17", "-0", "+5", "5.", ".5")

    @Test
    fun `the reader answers every generated, mutated or random input with a suite or problems`() {
        val random = Random(SEED)
        var suites = 0
        var refused = 0
        val started = System.nanoTime()
        repeat(INPUTS) { i ->
            val input = when (i % 3) {
                0 -> generated(random).toByteArray()
                1 -> mutated(random)
                else -> random.nextBytes(random.nextInt(0, 400))
            }
            val outcome = runCatching { parser.parse(SuiteText.decode(input, "fuzz.yaml"), "fuzz.yaml") }
            val e = outcome.exceptionOrNull()
            when {
                e == null -> suites++
                e is SuiteException && e.problems.isNotEmpty() -> refused++
                else -> throw AssertionError("input $i threw ${e.javaClass.name} instead of suite problems:\n" +
                    String(input, Charsets.ISO_8859_1).take(2000), e)
            }
        }
        val ms = (System.nanoTime() - started) / 1_000_000
        println("suite reader fuzz: $INPUTS inputs (seed $SEED): $suites suites, $refused refused with problems, in $ms ms")
        assertThat(suites + refused).isEqualTo(INPUTS)
    }

    private fun scalar(r: Random) = if (r.nextInt(4) == 0) r.nextInt(-5, 100_000).toString() else values.random(r)

    private fun value(r: Random, depth: Int): String = when (if (depth > 3) 0 else r.nextInt(5)) {
        0, 1 -> scalar(r)
        2 -> List(r.nextInt(0, 4)) { value(r, depth + 1) }.joinToString(", ", "[", "]")
        else -> List(r.nextInt(0, 4)) { "${keys.random(r)}: ${value(r, depth + 1)}" }.joinToString(", ", "{", "}")
    }

    /** A YAML document over the suite's keys, mostly well-formed, with hostile values mixed in. */
    private fun generated(r: Random): String = buildString {
        append("name: fuzz\napps: [{stack: ${listOf("tomcat", "webflux", "x").random(r)}}]\n")
        if (r.nextBoolean()) append("endpoints: [{kind: noop}]\n")
        repeat(r.nextInt(0, 6)) { append("${keys.random(r)}: ${value(r, 0)}\n") }
        if (r.nextInt(10) == 0) append("x: &x [a, b]\ny: [*x, *x]\n")
    }

    /** A shipped suite with bytes flipped, inserted or deleted, or lines swapped, duplicated or dropped. */
    private fun mutated(r: Random): ByteArray {
        val seed = seeds.random(r)
        if (r.nextBoolean()) {
            val lines = String(seed, Charsets.UTF_8).lines().toMutableList()
            repeat(r.nextInt(1, 4)) {
                val at = r.nextInt(lines.size)
                when (r.nextInt(4)) {
                    0 -> lines.removeAt(at)
                    1 -> lines.add(at, lines.random(r))
                    2 -> lines[at] = lines[at].replaceFirst(Regex(":\\s*\\S.*$"), ": ${value(r, 0)}")
                    else -> lines[at] = " ".repeat(r.nextInt(0, 6)) + lines[at].trimStart()
                }
            }
            return lines.joinToString("\n").toByteArray()
        }
        val bytes = seed.toMutableList()
        repeat(r.nextInt(1, 8)) {
            if (bytes.isEmpty()) return@repeat
            val at = r.nextInt(bytes.size)
            when (r.nextInt(3)) {
                0 -> bytes[at] = r.nextInt(256).toByte()
                1 -> bytes.add(at, "[]{}:-&*!|>'\"#%@`,?\n\t ".random(r).code.toByte())
                else -> bytes.removeAt(at)
            }
        }
        return bytes.toByteArray()
    }
}
