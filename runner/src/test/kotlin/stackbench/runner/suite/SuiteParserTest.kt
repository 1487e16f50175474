package stackbench.runner.suite

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource
import stackbench.contract.CpuStrategy
import stackbench.contract.IoStrategy
import stackbench.runner.catalog.BootLine
import stackbench.runner.catalog.DriverCatalog
import stackbench.runner.catalog.Stack
import stackbench.runner.yaml.SuiteException
import stackbench.runner.yaml.SuiteProblem
import java.time.Duration

class SuiteParserTest {
    private val parser = SuiteParser(MachineFacts(cpus = 2))

    private fun problems(yaml: String): List<SuiteProblem> =
        (runCatching { parser.parse(yaml.trimIndent(), "s.yaml") }.exceptionOrNull() as? SuiteException)?.problems
            ?: error("expected the suite to be rejected")

    private val minimal = """
        name: t
        apps:
          - name: tc
            stack: tomcat
        endpoints:
          - kind: noop
    """

    @Test
    fun `the command line's restart policy replaces the suite's, and none leaves it`() {
        val suite = parser.parse((minimal.trimIndent() + "\nrestart: cell"), "s.yaml")
        assertThat(suite.withRestart("app").restart).isEqualTo(Restart.APP)
        assertThat(suite.withRestart(null).restart).isEqualTo(Restart.CELL)
        assertThatThrownBy { suite.withRestart("never") }.hasMessage("restart 'never' is not cell or app")
    }

    @Test
    fun `--apps keeps the named app configurations and names the known ones when one is unknown`() {
        val suite = parser.parse("name: t\napps: [{name: a, stack: tomcat}, {name: b, stack: webflux}]\nendpoints: [{kind: noop}]", "s.yaml")
        assertThat(suite.withApps(listOf("b")).apps.map { it.name }).containsExactly("b")
        assertThat(suite.withApps(null)).isEqualTo(suite)
        assertThatThrownBy { suite.withApps(listOf("b", "c")) }.hasMessage("no app configuration named c in suite t (it has a, b)")
    }

    @Test
    fun `load prime is on unless the suite turns it off, and only a boolean`() {
        assertThat(parser.parse(minimal.trimIndent(), "s.yaml").load.settings.prime).isTrue()
        assertThat(parser.parse(minimal.trimIndent() + "\nload: {prime: false}", "s.yaml").load.settings.prime).isFalse()
        val p = problems(minimal + "\n        load: {prime: sometimes}").single()
        assertThat(p.key).isEqualTo("load.prime")
        assertThat(p.render()).startsWith("s.yaml:8:15: load.prime: 'sometimes' is not true or false")
    }

    @Test
    fun `profile start-cpus limits the start by default, all puts the CPU limits off until the app is healthy, and a wrong value is named`() {
        assertThat(parser.parse(minimal.trimIndent(), "s.yaml").profile.startOnAllCpus).isFalse()
        assertThat(parser.parse(minimal.trimIndent() + "\nprofile: {cpuset: [1], start-cpus: limited}", "s.yaml").profile.startOnAllCpus).isFalse()
        val wide = parser.parse(minimal.trimIndent() + "\nprofile: {cpus: none, cpuset: [1], start-cpus: all}", "s.yaml").profile
        assertThat(wide.startOnAllCpus).isTrue()
        assertThat(wide.cpuset).containsExactly(1)
        val p = problems(minimal + "\n        profile: {start-cpus: every}").single()
        assertThat(p.key).isEqualTo("profile.start-cpus")
        assertThat(p.render()).startsWith("s.yaml:8:").contains("'every' is not a way to start the app").contains("limited").contains("all")
    }

    @Test
    fun `load prime-max caps priming between 5 s and 30 s, and only where priming is on`() {
        assertThat(parser.parse(minimal.trimIndent(), "s.yaml").load.settings.primeMax).isEqualTo(Defaults.PRIME_MAX)
        assertThat(parser.parse(minimal.trimIndent() + "\nload: {prime-max: 10s}", "s.yaml").load.settings.primeMax).isEqualTo(java.time.Duration.ofSeconds(10))
        val short = problems(minimal + "\n        load: {prime-max: 2s}").single()
        assertThat(short.key).isEqualTo("load.prime-max")
        assertThat(short.render()).contains("2s").contains("5s")
        assertThat(problems(minimal + "\n        load: {prime-max: 1m}").single().key).isEqualTo("load.prime-max")
        val off = problems(minimal + "\n        load: {prime: false, prime-max: 10s}").single()
        assertThat(off.render()).startsWith("s.yaml:8:").contains("load.prime-max: caps the priming, and prime is false")
    }

    @Test
    fun `load compile-first runs the cell's own request at one connection first, never before a cold window or a scenario`() {
        assertThat(parser.parse(minimal.trimIndent(), "s.yaml").load.settings.compileFirst).isNull()
        val suite = parser.parse(minimal.trimIndent() + "\nload: {compile-first: 60s}", "s.yaml")
        assertThat(suite.load.settings.compileFirst).isEqualTo(java.time.Duration.ofSeconds(60))
        val cell = stackbench.runner.plan.Planner.plan(suite, 1.0).cells.first()
        assertThat(cell.load.settings.compileFirst).isEqualTo(java.time.Duration.ofSeconds(60))
        assertThat(cell.load.describe()).contains("its own request at one connection first until the JIT is quiet (at most 1m)")
        val short = problems(minimal + "\n        load: {compile-first: 1s}").single()
        assertThat(short.key).isEqualTo("load.compile-first")
        val cold = problems(minimal + "\n        load: {warmup: 0s, compile-first: 30s}").single()
        assertThat(cold.render()).startsWith("s.yaml:8:").contains("load.compile-first: compiles before the warm-up, and warmup is 0")
    }

    @Test
    fun `load warmup-reconnect warms up again on new connections, never after a cold start or in a scenario`() {
        assertThat(parser.parse(minimal.trimIndent(), "s.yaml").load.settings.warmupReconnect).isFalse()
        val suite = parser.parse(minimal.trimIndent() + "\nload: {warmup-reconnect: true}", "s.yaml")
        assertThat(suite.load.settings.warmupReconnect).isTrue()
        val cell = stackbench.runner.plan.Planner.plan(suite, 1.0).cells.first()
        assertThat(cell.load.settings.warmupReconnect).isTrue()
        assertThat(cell.load.describe()).contains("then again on new connections until steady")
        val cold = problems(minimal + "\n        load: {warmup: 0s, warmup-reconnect: true}").single()
        assertThat(cold.render()).startsWith("s.yaml:8:").contains("load.warmup-reconnect: warms up a second time on new connections, and warmup is 0")
        assertThat(problems(minimal + "\n        load: {warmup-reconnect: sometimes}").single().key).isEqualTo("load.warmup-reconnect")
    }

    @Test
    fun `profiler is a mode or a mode and an engine, and a wrong one is named`() {
        assertThat(parser.parse(minimal.trimIndent(), "s.yaml").profiler).isNull()
        assertThat(parser.parse(minimal.trimIndent() + "\nprofiler: cpu", "s.yaml").profiler).isEqualTo(ProfilerSpec(ProfilerMode.CPU))
        assertThat(parser.parse(minimal.trimIndent() + "\nprofiler: {mode: alloc, engine: jfr}", "s.yaml").profiler)
            .isEqualTo(ProfilerSpec(ProfilerMode.ALLOC, ProfilerEngine.JFR))
        assertThat(problems(minimal + "\n        profiler: heap").single().render()).startsWith("s.yaml:8:11: profiler: 'heap' is not a profiler mode")
        assertThat(problems(minimal + "\n        profiler: {mode: cpu, engine: perf}").single().key).isEqualTo("profiler.engine")
        assertThat(problems(minimal + "\n        profiler: {mode: wall, engine: jfr}").single().render()).contains("JFR has no wall-clock sampling")
        assertThat(problems(minimal + "\n        profiler: {engine: jfr}").single().key).isEqualTo("profiler.mode")
    }

    @Test
    fun `an alternating profiler needs the windows in one process, three or more of them`() {
        val alternating = """
            name: t
            apps:
              - {name: cpu, stack: tomcat, profiler: {mode: cpu, alternate: true}}
            endpoints:
              - kind: noop
            repetitions: 7
        """.trimIndent()
        val ok = parser.parse(alternating + "\nrestart: app", "s.yaml")
        val spec = ok.profilerOf(ok.apps.single())!!
        assertThat(spec).isEqualTo(ProfilerSpec(ProfilerMode.CPU, alternate = true))
        assertThat((1..7).filter { spec.profiles(it) }).containsExactly(2, 4, 6)
        assertThat(ProfilerSpec(ProfilerMode.CPU).profiles(1)).isTrue()
        val ownProcesses = problems(alternating).single()
        assertThat(ownProcesses.render()).startsWith("s.yaml:2:1: apps[0].profiler.alternate").contains("restart: cell").contains("set restart: app")
        val two = problems(minimal + "\n        profiler: {mode: wall, alternate: true}\n        repetitions: 2\n        restart: app").single()
        assertThat(two.render()).contains("profiler.alternate").contains("a process has 2").contains("set repetitions: 3 or more")
        assertThat(problems(minimal + "\n        profiler: {mode: cpu, alternate: maybe}").single().key).isEqualTo("profiler.alternate")
    }

    @Test
    fun `an app's own profiler, or none, is over the suite's, and a wrong one is named at the app's key`() {
        val suite = parser.parse("""
            name: t
            apps:
              - {name: plain, stack: tomcat, profiler: none}
              - {name: walled, stack: tomcat, profiler: {mode: wall}}
              - {name: inherits, stack: tomcat}
            endpoints:
              - kind: noop
            profiler: cpu
        """.trimIndent(), "s.yaml")
        val (plain, walled, inherits) = suite.apps
        assertThat(plain.profiler).isEqualTo(AppProfiler.Off)
        assertThat(suite.profilerOf(plain)).isNull()
        assertThat(suite.profilerOf(walled)).isEqualTo(ProfilerSpec(ProfilerMode.WALL))
        assertThat(suite.profilerOf(inherits)).isEqualTo(ProfilerSpec(ProfilerMode.CPU))
        assertThat(suite.withProfiler(ProfilerSpec(ProfilerMode.ALLOC)).profilerOf(walled)).`as`("run --profile replaces the suite's, not an app's own")
            .isEqualTo(ProfilerSpec(ProfilerMode.WALL))
        val wrong = problems("""
            name: t
            apps:
              - {name: a, stack: tomcat, profiler: heap}
            endpoints:
              - kind: noop
        """).single()
        assertThat(wrong.render()).startsWith("s.yaml:3:40: apps[0].profiler: 'heap' is not a profiler mode")
        assertThat(problems(minimal + "\n        profiler: none").single().render()).contains("profiler: 'none' is not a profiler mode")
        val command = problems("""
            name: t
            apps:
              - {name: c, command: [./server, --port, "{port}"], profiler: cpu}
            endpoints:
              - kind: noop
        """).single()
        assertThat(command.key).isEqualTo("apps[0].profiler")
        assertThat(command.render()).contains("a command's process is not profiled")
    }

    @Test
    fun `a minimal suite gets the documented defaults`() {
        val suite = parser.parse(minimal.trimIndent(), "s.yaml")
        assertThat(suite.name).isEqualTo("t")
        assertThat(suite.apps.single().stack).isEqualTo(Stack.TOMCAT)
        assertThat(suite.profile).isEqualTo(ResourceProfile(1.0, emptyList(), 1L shl 30, 75))
        assertThat(suite.load.settings.driver).isEqualTo(DriverCatalog.OHA)
        assertThat(suite.load.model).isEqualTo(LoadModel.Closed(listOf(Defaults.CONNECTIONS)))
        assertThat(suite.load.settings.length).isEqualTo(LoadLength.Timed(Defaults.DURATION))
        assertThat(suite.repetitions).isEqualTo(Defaults.REPETITIONS).isEqualTo(3)
    }

    @Test
    fun `a full suite reads every section`() {
        val suite = parser.parse(
            """
            name: full
            description: every key
            apps:
              - name: tc-vt
                stack: tomcat
                virtual-threads: true
                properties: {server.tomcat.threads.max: 10}
                jvm-args: [-XX:+UseSerialGC]
              - stack: undertow
              - name: flux
                stack: webflux
                boot: "3.5"
                system-properties: {reactor.netty.ioWorkerCount: 1}
            profile: {cpus: 1, cpuset: [1], memory: 1GiB, heap: 75%}
            endpoints:
              - kind: cpu
                strategies: [direct, coop]
                limit: [1000, 100_000]
                batch: [100, 1000]
              - kind: io
                strategies: all
                delay: 500ms
                apps: [tc-vt]
              - kind: todo
                method: [GET, POST]
            load: {driver: wrk, connections: [100, 400], warmup: 5s, duration: 30s, timeout: 30s, threads: 12}
            repetitions: 3
            """.trimIndent(), "s.yaml",
        )
        assertThat(suite.apps.map { it.name }).containsExactly("tc-vt", "undertow", "flux")
        assertThat(suite.apps[0].virtualThreads).isTrue()
        assertThat(suite.apps[0].properties).containsEntry("server.tomcat.threads.max", "10")
        assertThat(suite.apps[1].stack).isEqualTo(Stack.UNDERTOW)
        assertThat(suite.apps[1].stack?.boot).isEqualTo(BootLine.BOOT_3_5)
        assertThat(suite.apps[2].stack).isEqualTo(Stack.WEBFLUX_BOOT3)
        assertThat(suite.apps[2].systemProperties).containsEntry("reactor.netty.ioWorkerCount", "1")
        assertThat(suite.profile.mode).isEqualTo(CpuLimitMode.QUOTA_AND_CPUSET)
        val cpu = suite.endpoints[0] as EndpointSpec.Cpu
        assertThat(cpu.strategies).containsExactly(CpuStrategy.DIRECT, CpuStrategy.COOP)
        assertThat(cpu.limits).containsExactly(1000L, 100_000L)
        val io = suite.endpoints[1] as EndpointSpec.Io
        assertThat(io.strategies).containsExactlyElementsOf(IoStrategy.entries)
        assertThat(io.delaysMs).containsExactly(500L)
        assertThat(io.onlyApps).containsExactly("tc-vt")
        assertThat(suite.load.settings.driver).isEqualTo(DriverCatalog.WRK)
        assertThat(suite.load.model).isEqualTo(LoadModel.Closed(listOf(100, 400)))
        assertThat(suite.load.settings.threads).isEqualTo(12)
        assertThat(suite.repetitions).isEqualTo(3)
    }

    @Test
    fun `an unknown key is an error at its line and column, with the close key suggested`() {
        val p = problems(
            """
            name: t
            apps:
              - stack: tomcat
            endpoints:
              - kind: noop
            load:
              duraton: 30s
            """,
        ).single()
        assertThat(p.render()).isEqualTo(
            """
            s.yaml:7:3: load.duraton: is not a known key
              7 |   duraton: 30s
                |   ^
              hint: did you mean 'duration'? known keys here: compile-first, connections, driver, duration, duration-max, find, instances, max-rate, model, precision, prime, prime-max, rates, requests, scenario, slo, start-rate, threads, timeout, warmup, warmup-max, warmup-reconnect
            """.trimIndent(),
        )
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
        delimiter = '|',
        value = [
            "unknown stack         | apps: [{stack: tomact}]                               | 3:16 | apps[0].stack: 'tomact' is not a stack",
            "wrong boot line       | apps: [{stack: jetty, boot: '3.5'}]                   | 3:29 | apps[0].boot: '3.5' is not a Spring Boot line that jetty is built on",
            "unknown strategy      | endpoints: [{kind: cpu, strategies: [direkt]}]        | 4:38 | endpoints[0].strategies: 'direkt' is not a strategy of this endpoint",
            "unknown kind          | endpoints: [{kind: gpu}]                              | 4:20 | endpoints[0].kind: 'gpu' is not an endpoint kind",
            "bad duration          | load: {duration: 30x}                                 | 5:18 | load.duration: '30x' is not a duration",
            "too many cpus         | profile: {cpus: 4}                                    | 5:17 | profile.cpus: asks for 4.0 CPUs but this machine has 2",
            "cpu not on machine    | profile: {cpuset: [3]}                                | 5:20 | profile.cpuset: '3' is not a CPU of this machine",
            "limit above the cap   | endpoints: [{kind: cpu, strategies: [direct], limit: 20000000}] | 4:54 | endpoints[0].limit: '20000000' is not a whole number in 0..10000000",
            "delay above 60 s      | endpoints: [{kind: io, strategies: [blocking], delay: 61s}] | 4:55 | endpoints[0].delay: '61s' is outside 0..60000 ms",
            "wrk with open model   | load: {driver: wrk, model: open, rates: [10]}         | 5:16 | load.driver: wrk drives a closed model only",
            "rates on closed model | load: {rates: [10]}                                   | 5:8  | load.rates: does not apply here: only open-model loads take it",
            "unknown driver        | load: {driver: hey}                                   | 5:16 | load.driver: 'hey' is not a load driver",
            "bad memory            | profile: {memory: 1 banana}                           | 5:19 | profile.memory: '1 banana' is not a size in 64MiB..1TiB",
            "window cap too short  | load: {duration: 30s, duration-max: 20s}              | 5:37 | load.duration-max: is shorter than duration (30s)",
            "window cap, open      | load: {driver: oha, model: open, rates: [10], duration-max: 60s} | 5:61 | load.duration-max: lengthens a closed-model window to hold enough round trips a connection; this load is not a closed model",
            "window cap, counted   | load: {driver: oha, requests: 200, duration-max: 60s}  | 5:50 | load.duration-max: goes with a window of a duration, not a request count",
        ],
    )
    fun `bad input is named at its line and column`(case: String, line: String, at: String, message: String) {
        // the line under test replaces the matching section of a valid suite
        val section = line.substringBefore(':')
        val base = mapOf(
            "apps" to "apps: [{stack: tomcat}]",
            "endpoints" to "endpoints: [{kind: noop}]",
            "load" to "",
            "profile" to "",
        ).toMutableMap()
        base[section] = line
        val yaml = listOf("name: t", "# $case", base["apps"], base["endpoints"], base["load"] + base["profile"]).joinToString("\n")
        val ps = problems(yaml)
        assertThat(ps.map { "${it.line}:${it.column} ${it.key}: ${it.message}" })
            .anySatisfy { assertThat(it).isEqualTo("$at $message") }
    }

    @Test
    fun `every problem is reported, not only the first`() {
        val ps = problems(
            """
            name: t
            apps: [{stack: nope}]
            endpoints: [{kind: cpu, strategies: [x, y]}]
            load: {duration: soon, warmup: later}
            """,
        )
        assertThat(ps).hasSize(5)
        assertThat(ps.map { it.line }).isSorted()
    }

    @Test
    fun `invalid yaml is reported at its position`() {
        val p = problems("name: t\napps: [\n  {stack: tomcat\n").single()
        assertThat(p.key).isEqualTo("yaml")
        assertThat(p.message).startsWith("not valid YAML")
    }

    @Test
    fun `a missing required section is named`() {
        val ps = problems("name: t")
        assertThat(ps.map { it.key }).containsExactly("apps", "endpoints")
    }

    @Test
    fun `duplicate app names are rejected`() {
        val p = problems("name: t\napps: [{stack: tomcat}, {stack: tomcat}]\nendpoints: [{kind: noop}]").single()
        assertThat(p.message).contains("'tomcat' is used twice")
    }

    @Test
    fun `endpoint app restrictions must name apps of the suite`() {
        val p = problems("name: t\napps: [{stack: tomcat}]\nendpoints: [{kind: noop, apps: [jetty]}]").single()
        assertThat(p.message).isEqualTo("'jetty' is not an app of this suite")
    }

    @Test
    fun `the runner's own properties may not be set by a suite`() {
        val p = problems("name: t\napps: [{stack: tomcat, properties: {server.port: 1}}]\nendpoints: [{kind: noop}]").single()
        assertThat(p.message).contains("set by the runner")
    }

    @Test
    fun `an open-model capacity search reads its target`() {
        val suite = parser.parse(
            "name: t\napps: [{stack: tomcat}]\nendpoints: [{kind: noop}]\n" +
                "load: {model: open, find: capacity, slo: {p99: 100ms, errors: 0.1%}, start-rate: 100, max-rate: 5000}",
            "s.yaml",
        )
        val model = suite.load.model as LoadModel.Capacity
        assertThat(model.slo).isEqualTo(Slo(Duration.ofMillis(100), 0.001))
        assertThat(model.startRate).isEqualTo(100.0)
        assertThat(model.maxRate).isEqualTo(5000.0)
    }

    @Test
    fun `a fixed request count replaces the duration`() {
        val suite = parser.parse("name: t\napps: [{stack: tomcat}]\nendpoints: [{kind: noop}]\nload: {connections: 30, requests: 200}", "s.yaml")
        assertThat(suite.load.settings.length).isEqualTo(LoadLength.Counted(200))
        val p = problems("name: t\napps: [{stack: tomcat}]\nendpoints: [{kind: noop}]\nload: {requests: 200, duration: 5s}").single()
        assertThat(p.message).isEqualTo("give duration or requests, not both")
    }
}
