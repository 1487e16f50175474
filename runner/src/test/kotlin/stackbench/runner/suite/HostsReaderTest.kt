package stackbench.runner.suite

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.yaml.SuiteException
import java.time.Duration

class HostsReaderTest {
    private val parser = SuiteParser(MachineFacts(cpus = 2))
    private val head = "name: t\napps: [{name: a, stack: tomcat}]\nendpoints: [{kind: noop}]\n"

    private fun suite(yaml: String) = parser.parse(head + yaml.trimIndent(), "s.yaml")

    private fun problems(yaml: String): List<String> =
        (runCatching { suite(yaml) }.exceptionOrNull() as? SuiteException)?.problems?.map { "${it.line}:${it.column} ${it.key}: ${it.message}" + (it.hint?.let { h -> " ($h)" } ?: "") }
            ?: error("expected the suite to be rejected")

    @Test
    fun `a suite without hosts runs every role on this machine`() {
        val hosts = suite("").hosts
        assertThat(hosts).isEqualTo(HostsSpec.LOCAL)
        assertThat(hosts.allLocal).isTrue()
        assertThat(hosts.load).containsExactly(HostSpec.Local("local"))
    }

    @Test
    fun `every kind of host is read with its fields, and the placement names them`() {
        val hosts = suite("""
            hosts:
              - {name: server, kind: netns, rtt: 20ms, rate: 1gbit}
              - {name: load1, kind: ssh, address: 10.77.0.3, user: bench, key: /k/id, port: 2222, cpus: [1, 0], java: /opt/jdk/bin/java, known-hosts: /k/known}
              - {name: here}
            placement:
              app: server
              downstream: load1
              load: here
        """).hosts
        assertThat(hosts.hosts).containsExactly(
            HostSpec.Local("local"),
            HostSpec.Netns("server", Duration.ofMillis(20), 1_000_000_000),
            HostSpec.Ssh("load1", "10.77.0.3", "bench", "/k/id", 2222, listOf(0, 1), "/opt/jdk/bin/java", "/k/known"),
            HostSpec.Local("here"),
        )
        assertThat(hosts.placement).isEqualTo(HostPlacement("server", "load1", listOf("here")))
        assertThat(hosts.app).isEqualTo(HostSpec.Netns("server", Duration.ofMillis(20), 1_000_000_000))
        assertThat(hosts.allLocal).isFalse()
    }

    @Test
    fun `an ssh host's defaults - root, port 22, ssh's own key, any CPU`() {
        val ssh = suite("hosts: [{name: l, kind: ssh, address: box.example}]\nplacement: {downstream: l}").hosts.downstream
        assertThat(ssh).isEqualTo(HostSpec.Ssh("l", "box.example", "root", null, 22, emptyList(), "java"))
    }

    @Test
    fun `a field of another kind of host is refused at its key, naming the kinds that take it`() {
        assertThat(problems("hosts:\n  - {name: s, kind: netns, address: 10.0.0.1}\n  - {name: l, rtt: 5ms}")).containsExactly(
            "5:28 hosts[0].address: does not apply to a netns host (only ssh hosts take it)",
            "6:15 hosts[1].rtt: does not apply to a local host (only netns hosts take it)",
        )
    }

    @Test
    fun `bad values are refused at their line and column with the fix`() {
        assertThat(problems("""
            hosts:
              - {name: Server, kind: vm}
              - {name: s2, kind: netns, rtt: 20, rate: fast}
              - {name: l, kind: ssh}
        """)).containsExactly(
            "5:12 hosts[0].name: 'Server' is not a host name (lower-case letters, digits and '-', at most 20, starting with a letter)",
            "5:26 hosts[0].kind: 'vm' is not a kind of host (one of: local, netns, ssh)",
            "6:34 hosts[1].rtt: '20' is not a duration (a duration is a number and a unit: 500ms, 30s, 2m, 1h)",
            "6:44 hosts[1].rate: 'fast' is not a bandwidth in 1mbit..100gbit (a bandwidth is a number and a unit: 100mbit, 1gbit (bits per second, as tc writes them))",
            "7:5 hosts[2].address: is required for an ssh host (the machine's address or name, e.g. address: 10.0.0.5)",
        )
    }

    @Test
    fun `names are unique and local is the built-in host`() {
        assertThat(problems("hosts: [{name: local}, {name: a}, {name: a, kind: netns}]")).containsExactly(
            "4:16 hosts[0].name: 'local' is the built-in host (this machine) (give the host another name)",
            "4:42 hosts[2].name: 'a' is named twice; host names must be unique",
        )
    }

    @Test
    fun `the placement names hosts of the suite, keeps the app off ssh hosts, and splits only with a driver that can`() {
        assertThat(problems("""
            hosts: [{name: far, kind: ssh, address: h}, {name: ns, kind: netns}]
            placement: {app: far, downstream: nowhere, load: [ns, local]}
        """)).containsExactly(
            "5:18 placement.app: the app cannot run on an ssh host yet: the lab samples the app's process and cgroup on this machine " +
                "(place the app on a local or netns host; the load and the downstream service may run over ssh)",
            "5:35 placement.downstream: 'nowhere' is not a host of this suite (hosts here: local, far, ns)",
            "5:50 placement.load: oha cannot split one load over 2 hosts (name one load host, or use a driver that splits its load (k6))",
        )
        assertThat(problems("hosts: [{name: ns, kind: netns}]\nplacement: {load: [ns, ns], ap: ns}")).containsExactly(
            "5:19 placement.load: oha cannot split one load over 2 hosts (name one load host, or use a driver that splits its load (k6))",
            "5:24 placement.load: 'ns' is named twice (name each load host once)",
            "5:29 placement.ap: is not a known key (did you mean 'app'? known keys here: app, downstream, load)",
        )
    }

    @Test
    fun `a load on an ssh host needs a driver that runs there`() {
        assertThat(problems("hosts: [{name: far, kind: ssh, address: h}]\nplacement: {load: far}")).containsExactly(
            "5:19 placement.load: oha cannot run on an ssh host: it reads and writes its files on this machine (place the load on a local or netns host, or use driver: k6)",
        )
        // k6 runs there only for a scenario, which has no warm-up and no priming on this machine's files
        assertThat(problems("load: {driver: k6}\nhosts: [{name: far, kind: ssh, address: h}]\nplacement: {load: far}")).containsExactly(
            "6:19 placement.load: k6 runs on an ssh host only for a scenario (model: scenario): a closed or open load's warm-up and the app's priming " +
                "run on this machine's files (use model: scenario, or place the load on a local or netns host)",
        )
        val scenario = "name: t\napps: [{name: a, stack: tomcat, boot: \"3.5\"}]\nendpoints: [{kind: todo, method: [GET]}]\n" +
            "load: {driver: k6, model: scenario, scenario: {users: [{duration: 5s, target: 2}], steps: [GET /todo]}}\n" +
            "hosts: [{name: far, kind: ssh, address: h}, {name: near, kind: ssh, address: g}]\nplacement: {load: [far, near]}\n"
        assertThat(parser.parse(scenario, "s.yaml").hosts.load.map { it.name }).containsExactly("far", "near")
    }

    @Test
    fun `bandwidths read as tc writes them`() {
        assertThat(HostsReader.rate("100mbit")).isEqualTo(100_000_000)
        assertThat(HostsReader.rate("1.5gbit")).isEqualTo(1_500_000_000)
        assertThat(HostsReader.rate("512kbit")).isEqualTo(512_000)
        assertThat(HostsReader.rate("1 GB")).isNull()
    }
}
