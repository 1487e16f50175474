package stackbench.runner.suite

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource
import stackbench.runner.plan.Planner
import stackbench.runner.yaml.SuiteException
import stackbench.runner.yaml.SuiteProblem
import stackbench.runner.yaml.YamlDocument

/** Hostile and absurd suite files (issue 14): each is a suite problem at the file, never another exception. */
class HostileSuitesTest {
    private val parser = SuiteParser(MachineFacts(cpus = 2))
    private val minimal = "name: t\napps: [{stack: tomcat}]\nendpoints: [{kind: noop}]\n"

    private fun problems(bytes: ByteArray): List<SuiteProblem> {
        val e = runCatching { parser.parse(SuiteText.decode(bytes, "s.yaml"), "s.yaml") }.exceptionOrNull()
        assertThat(e).isInstanceOf(SuiteException::class.java)
        return (e as SuiteException).problems.also { assertThat(it).isNotEmpty.allSatisfy { p -> assertThat(p.file).isEqualTo("s.yaml") } }
    }

    private fun problems(text: String) = problems(text.toByteArray())

    @Test
    fun `binary garbage, UTF-16, a bad byte in a comment and NUL bytes are not UTF-8 suite text`() {
        assertThat(problems(byteArrayOf(0x7f, 0x45, 0x4c, 0x46, 0x02, 0xc3.toByte(), 0x28, 0xff.toByte())).single().message).contains("not UTF-8")
        assertThat(problems(("\uFEFF" + minimal).toByteArray(Charsets.UTF_16)).single().message).contains("UTF-16")
        val comment = problems(minimal.toByteArray() + "# caf".toByteArray() + byteArrayOf(0xe9.toByte()) + "\n".toByteArray()).single()
        assertThat(comment.line to comment.column).isEqualTo(4 to 6)
        val nul = problems("name: t\napps: [{stack: tomcat}]\u0000\n").single()
        assertThat(nul.line to nul.column).isEqualTo(2 to 24)
        assertThat(nul.message).contains("U+0000")
    }

    @Test
    fun `an alias bomb, deep nesting, a complex key and a huge file are refused`() {
        val bomb = buildString {
            append("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n")
            for (i in 1..9) append("${'a' + i}: &${'a' + i} [" + List(9) { "*${'a' + i - 1}" }.joinToString(",") + "]\n")
            append(minimal)
        }
        assertThat(problems(bomb).single().message).contains("aliases")
        assertThat(problems("name: *x\n" + minimal.substringAfter('\n'))).isNotEmpty
        val deep = problems("name: " + "[".repeat(100_000) + "]".repeat(100_000) + "\n").single()
        assertThat(deep.message).contains("nest deeper than ${YamlDocument.MAX_DEPTH}")
        assertThat(deep.render().length).isLessThan(600) // the megabyte line is shown as a window around the column
        val long = SuiteProblem("s.yaml", 1, 1001, "k", "m", null, "a".repeat(1000) + "X" + "b".repeat(1000)).render().lines()
        assertThat(long[1].length).isLessThan(200)
        assertThat(long[1][long[2].indexOf('^')]).isEqualTo('X')
        assertThat(problems("? [a, b]\n: c\n" + minimal)).isNotEmpty
        assertThat(problems("{a: 1}: 2\n" + minimal)).isNotEmpty
        assertThat(problems("#" + "x".repeat(YamlDocument.MAX_BYTES) + "\n" + minimal).single().message).contains("at most 1024 KiB")
    }

    @ParameterizedTest
    @CsvSource(
        "'profile: {cpus: .nan}', profile.cpus",
        "'profile: {cpus: NaN}', profile.cpus",
        "'profile: {cpus: .inf}', profile.cpus",
        "'profile: {cpus: Infinity}', profile.cpus",
        "'profile: {cpus: 0.001}', profile.cpus",
        "'profile: {cpus: 0x1p1}', profile.cpus",
        "'profile: {cpus: 3}', profile.cpus",
        "'profile: {memory: 99999999999999999999GiB}', profile.memory",
        "'load: {duration: 876000h}', load.duration",
        "'load: {duration: 99999999999999999999999ms}', load.duration",
        "'load: {duration: 7h}', load.duration",
        "'load: {warmup: 2h}', load.warmup",
        "'load: {warmup-max: 876000h}', load.warmup-max",
        "'load: {timeout: 1h}', load.timeout",
        "'load: {model: open, rates: [.nan]}', load.rates",
        "'load: {model: open, find: capacity, slo: {p99: 100ms}, start-rate: .nan}', load.start-rate",
        "'downstream: {stall: {every: 1000h}}', downstream.stall.every",
    )
    fun `absurd numbers are refused at their key`(line: String, key: String) {
        assertThat(problems(minimal + line).map { it.key }).contains(key)
    }

    @Test
    fun `sane numbers at the edges are read`() {
        val suite = parser.parse(minimal + "profile: {cpus: 0.01}\nload: {duration: 6h, warmup: 1h, warmup-max: 1h}", "s.yaml")
        assertThat(suite.profile.cpus).isEqualTo(0.01)
        assertThat(suite.load.settings.warmup).isEqualTo(java.time.Duration.ofHours(1))
    }

    @Test
    fun `a suite that expands to no cell says why`() {
        assertThat(problems("name: t\napps: [{stack: tomcat}]\nendpoints: []\n").single().message).contains("at least one endpoint")
        val suite = parser.parse("name: t\napps: [{name: a, stack: tomcat}, {name: b, stack: webflux}]\nendpoints: [{kind: noop, apps: [b]}]", "s.yaml")
        val e = runCatching { Planner.plan(suite.withApps(listOf("a"))) }.exceptionOrNull()
        assertThat(e).isInstanceOf(SuiteException::class.java)
        assertThat((e as SuiteException).problems.single().message).contains("no cell").contains("no endpoint runs on its apps")
    }
}
