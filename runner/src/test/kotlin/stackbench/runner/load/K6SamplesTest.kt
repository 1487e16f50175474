package stackbench.runner.load

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.entry
import org.junit.jupiter.api.Test
import stackbench.runner.load.LoadFixtures.recorded
import stackbench.runner.load.LoadFixtures.request
import stackbench.runner.plan.LoadShape
import java.io.BufferedReader
import java.io.StringReader
import java.nio.file.Files

/** Reading k6's CSV, and merging instances: histograms added, answers concatenated, counts summed. */
class K6SamplesTest {
    private fun read(case: String) = Files.newBufferedReader(recorded("k6", case).resolve("stdout.txt")).use { K6Samples.read(it) }

    private fun csv(vararg rows: String): K6Samples = K6Samples.read(BufferedReader(StringReader(
        (listOf("metric_name,timestamp,metric_value,error_code,expected_response,status,extra_tags,metadata") + rows).joinToString("\n"),
    )))

    @Test
    fun `only request durations and dropped iterations count`() {
        val s = csv(
            "http_reqs,1000,1.000000,,true,200,,",
            "http_req_duration,1000,4.500000,,true,200,,",
            "http_req_duration,2500,2.000000,,false,404,,",
            "http_req_duration,2600,1000.000000,1050,false,0,,",
            "dropped_iterations,2700,1.000000,,,,,",
            "dropped_iterations,2800,1.000000,,,,,",
            "iterations,2800,1.000000,,,,,",
        )
        assertThat(s.requests).isEqualTo(3)
        assertThat(s.responses).isEqualTo(2)
        assertThat(s.expected).isEqualTo(1)
        assertThat(s.statusCodes).containsExactly(entry("200", 1L), entry("404", 1L))
        assertThat(s.failures).containsExactly(entry("timeout", 1L))
        assertThat(s.dropped).isEqualTo(2)
        assertThat(s.firstStartMs).isEqualTo(995) // 1000 ms less 4.5 ms, rounded half up to 5 ms
        assertThat(s.lastEndMs).isEqualTo(2600)
        assertThat(s.histogram.totalCount).isEqualTo(2)
        assertThat(s.histogram.maxValue).isBetween(4_500L, 4_503L)
    }

    @Test
    fun `merged instances hold every request of every part, in one histogram`() {
        val a = read("closed-timed")
        val b = read("status")
        val c = read("open-overload")
        val m = K6Samples.merge(listOf(a, b, c))
        assertThat(m.requests).isEqualTo(162L + 298 + 17)
        assertThat(m.responses).isEqualTo(a.responses + b.responses + c.responses)
        assertThat(m.histogram.totalCount).isEqualTo(477)
        assertThat(m.statusCodes).containsExactly(entry("200", 162L + 205 + 17), entry("404", 59L), entry("500", 34L))
        assertThat(m.dropped).isEqualTo(64)
        assertThat(m.firstStartMs).isEqualTo(minOf(a.firstStartMs, b.firstStartMs, c.firstStartMs))
        assertThat(m.lastEndMs).isEqualTo(maxOf(a.lastEndMs, b.lastEndMs, c.lastEndMs))
        // the merged median lies between the parts' medians (status ~6 ms, closed-timed ~12 ms, overload ~100 ms), not at their mean
        val p50 = m.histogram.getValueAtPercentile(50.0)
        assertThat(p50).isBetween(b.histogram.getValueAtPercentile(50.0), a.histogram.getValueAtPercentile(50.0))
    }

    @Test
    fun `a merged result's per-second series sums the parts' answers by time`() {
        val a = read("closed-timed")
        val m = K6Samples.merge(listOf(a, a))
        val r = K6Driver.result(request(recorded("k6", "closed-timed"), LoadShape.Closed(4)), m, 9.0)
        val single = K6Driver.result(request(recorded("k6", "closed-timed"), LoadShape.Closed(2)), a, 9.0)
        assertThat(r.responses).isEqualTo(324)
        assertThat(r.perSecond.map { it.responses }).isEqualTo(single.perSecond.map { it.responses * 2 })
        assertThat(r.latency.p50).isEqualTo(single.latency.p50)
    }

    @Test
    fun `merging nothing is an empty run`() {
        val m = K6Samples.merge(emptyList())
        assertThat(m.requests).isZero()
        assertThat(m.histogram.totalCount).isZero()
    }
}
