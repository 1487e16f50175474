package stackbench.runner.cell

import stackbench.runner.suite.FeedSample
import stackbench.runner.suite.Traffic
import stackbench.runner.sut.Answer
import stackbench.runner.sut.Expectations
import tools.jackson.databind.ObjectMapper

/**
 * The requests the verification sends and what each got: one line each in the cell's `verify.txt`, named as the
 * results name them (`read GET /orders/783 -> 200 in 1.2 ms ok`). Pure: the sending is the caller's.
 */
object VerifyLog {
    const val FILE = "verify.txt"

    /** One request sent before the load: its [name], what was sent, the answer, and what is wrong with it (null: right). */
    data class Checked(val name: String, val method: String, val path: String, val answer: Answer, val problem: String?) {
        val line: String get() = "$name $method $path -> ${answer.status} in %.1f ms ".format(answer.elapsedMs) + (problem?.let { "FAILED: $it" } ?: "ok")
    }

    /** A request to send: what the load sends, filled with sampled values. */
    data class Planned(val name: String, val method: String, val path: String, val headers: Map<String, String>, val body: String?, val check: (Answer) -> String?)

    /**
     * The requests that verify [traffic]: each request of a mix (or the one fed request), and of a fed one a sample of
     * its values ([FeedSample]: the first rows of each feed and some drawn at random).
     */
    fun planned(traffic: Traffic, json: ObjectMapper): List<Planned> = traffic.requests.flatMap { template ->
        FeedSample.of(template, traffic.feeds).map { r ->
            Planned(r.name, r.method, r.path, r.headers, r.body) { answer ->
                if (answer.status != r.status) "expected status ${r.status}, got ${answer.status}: ${Expectations.excerpt(answer.body)}"
                else r.check?.problem(answer.body, json)
            }
        }
    }

    /** The file's text: a header naming the sample, then a line a request. */
    fun text(checked: List<Checked>, traffic: Traffic?): String = buildString {
        if (traffic != null && traffic.feeds.isNotEmpty()) {
            appendLine("# fed values checked: the first ${FeedSample.FIRST} rows of each feed and ${FeedSample.DRAWN} drawn at random, for each request " +
                "(${traffic.feeds.joinToString { "${it.name}: ${it.rows.size} from ${it.source}, ${it.pick.id}" }})")
        }
        checked.forEach { appendLine(it.line) }
    }
}
