package stackbench.runner.suite

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.plan.Planner
import stackbench.runner.yaml.SuiteException
import stackbench.runner.yaml.SuiteProblem
import java.time.Duration

/** A `url:` app (a service already running elsewhere) in a suite: what it reads into, and every key that makes no sense with it named. */
class UrlAppSuiteTest {
    private val parser = SuiteParser(MachineFacts(cpus = 2))

    private fun parse(yaml: String) = parser.parse(yaml.trimIndent(), "suites/url.yaml")

    private fun problems(yaml: String): List<SuiteProblem> =
        (runCatching { parse(yaml) }.exceptionOrNull() as? SuiteException)?.problems ?: error("expected the suite to be rejected")

    private fun List<SuiteProblem>.one(): SuiteProblem {
        assertThat(this).`as`(joinToString(" / ") { it.render() }).hasSize(1)
        return single()
    }

    /** A suite of the one app [app], with [profile] when given. */
    private fun suite(app: String, profile: String? = null) =
        "name: u\napps:\n  - $app\n" + (profile?.let { "profile: $it\n" } ?: "") + "endpoints: [{kind: http, name: x, path: /x}]"

    @Test
    fun `a url reads into its source, with its readiness and a name from its host and port, and limits nothing`() {
        val s = parse("""
            name: u
            apps:
              - url: http://127.0.0.1:8080/
                ready: {path: /health, status: 200, timeout: 5s}
              - {name: remote, url: "https://orders.example.com/api/v2"}
            endpoints: [{kind: http, name: order, path: '/orders/{id}', params: {id: [1]}}]
            repetitions: 1
        """)
        val (local, remote) = s.apps
        assertThat(local.source).isEqualTo(AppSource.Url("http://127.0.0.1:8080"))
        assertThat(local.name).isEqualTo("127.0.0.1-8080")
        assertThat(local.ready).isEqualTo(Readiness("/health", 200, Duration.ofSeconds(5)))
        assertThat(local.stack).isNull()
        assertThat(remote.source).isEqualTo(AppSource.Url("https://orders.example.com/api/v2"))
        assertThat(remote.ready).`as`("the own apps' default: any answer below 500 at /").isNull()
        // no profile written: a suite with a url app limits nothing, rather than the defaults' one CPU and 1 GiB
        assertThat(s.profile.cpus).isNull()
        assertThat(s.profile.memoryBytes).isNull()
        assertThat(s.profile.cpuset).isEmpty()
        assertThat(Planner.plan(s).cells.map { it.configKey }).containsExactly("127.0.0.1-8080/http-order-id1/c50", "remote/http-order-id1/c50")
        // cpus: none, and nothing else that limits, is the one profile a url app takes
        assertThat(parse(suite("{url: 'http://10.0.0.7:9000'}", "{cpus: none, memory: none}")).profile.mode).isEqualTo(CpuLimitMode.NONE)
        assertThat(parse(suite("{url: 'http://10.0.0.7:9000'}", "{cpus: none}")).profile.memoryBytes).isNull()
    }

    @Test
    fun `a url that is not http or https with a host is named at its key`() {
        for ((url, why) in listOf(
            "ftp://files.example.com" to "is not an http:// or https:// URL",
            "localhost:8080" to "is not an http:// or https:// URL",
            "'http:///path'" to "names no host",
            "'http://user:secret@example.com'" to "holds a user name or password",
            "'http://example.com/api?x=1'" to "has a query or fragment",
            "'http://exa mple.com'" to "is not a URL",
        )) {
            val p = problems(suite("{name: a, url: $url}")).one()
            assertThat(p.key).`as`(url).isEqualTo("apps[0].url")
            assertThat(p.message).`as`(url).contains(why)
            assertThat(p.line to p.column).`as`(url).isEqualTo(3 to 20)
        }
    }

    @Test
    fun `a url with a jar or a command is one kind too many`() {
        assertThat(problems(suite("{url: 'http://h:1', jar: a.jar}")).one().let { it.key to it.message })
            .isEqualTo("apps[0].url" to "an app is one of stack, jar, command or url, not jar and url")
        assertThat(problems(suite("{url: 'http://h:1', command: [./s]}")).one().key).isEqualTo("apps[0].url")
    }

    @Test
    fun `the keys that start or configure a process are refused on a url app, each named`() {
        for (key in listOf("args: [\"{port}\"]", "env: {PORT: \"8080\"}", "jvm-args: [-Xmx1g]", "system-properties: {a: b}", "build: [make]")) {
            val p = problems(suite("{url: 'http://h:1', $key}")).one()
            assertThat(p.key).isEqualTo("apps[0].${key.substringBefore(':')}")
            assertThat(p.message).contains("a url: app is a service already running")
        }
        for (key in listOf("virtual-threads: true", "properties: {a: b}", "boot: '3.5'")) {
            val p = problems(suite("{url: 'http://h:1', $key}")).one()
            assertThat(p.key).isEqualTo("apps[0].${key.substringBefore(':')}")
            assertThat(p.message).startsWith("is for the built-in apps")
            assertThat(p.hint).contains("a url: app is already running")
        }
        assertThat(problems(suite("{url: 'http://h:1', ready: health}")).one().message).isEqualTo("'health' is not a path")
        assertThat(problems(suite("{url: 'http://h:1', readiness: /health}")).one().message).isEqualTo("is not a known key")
    }

    @Test
    fun `a profile that limits CPUs or memory is refused at its key, naming the url app`() {
        val cpus = problems(suite("{name: remote, url: 'http://h:1'}", "{cpus: 1}")).one()
        assertThat(cpus.key).isEqualTo("profile.cpus")
        assertThat(cpus.message).isEqualTo("gives a CPU quota, but apps.remote is a url: app: a service already running elsewhere, which the lab cannot limit, pin or isolate")
        assertThat(cpus.line).isEqualTo(4)
        assertThat(problems(suite("{name: remote, url: 'http://h:1'}", "{cpus: none, cpuset: [1]}")).one().key).isEqualTo("profile.cpuset")
        assertThat(problems(suite("{name: remote, url: 'http://h:1'}", "{cpus: none, memory: 512MiB}")).one().key).isEqualTo("profile.memory")
        // the one profile is every app's: a url app beside a started one leaves that one unlimited too, and a limit is still refused
        val mixed = problems("""
            name: m
            apps:
              - {name: remote, url: 'http://h:1'}
              - {name: tc, stack: tomcat}
            profile: {cpus: 1, cpuset: [1], memory: 1GiB}
            endpoints: [{kind: http, name: x, path: /x}]
        """)
        assertThat(mixed.map { it.key }).containsExactly("profile.cpus", "profile.cpuset", "profile.memory")
        assertThat(mixed).allMatch { "apps.remote is a url: app" in it.message }
    }

    @Test
    fun `a url app cannot be placed on another host, it runs where its url says`() {
        val p = problems("""
            name: p
            apps: [{name: remote, url: 'http://h:1'}]
            endpoints: [{kind: http, name: x, path: /x}]
            hosts: [{name: box, kind: netns}]
            placement: {app: box}
        """).one()
        assertThat(p.key).isEqualTo("placement.app")
        assertThat(p.message).contains("apps.remote is a url: app")
    }
}
