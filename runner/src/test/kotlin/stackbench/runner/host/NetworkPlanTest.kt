package stackbench.runner.host

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.suite.HostSpec
import java.time.Duration

class NetworkPlanTest {
    private val plan = NetworkPlan.of("sb42", listOf(
        HostSpec.Netns("server", Duration.ofMillis(20), null),
        HostSpec.Netns("load1", null, 1_000_000_000),
        HostSpec.Netns("plain"),
    ), takenSubnets = setOf(0, 1))

    @Test
    fun `names carry the run's tag, addresses follow the bridge's in the first free subnet`() {
        assertThat(plan.bridge).isEqualTo("sb42br")
        assertThat(plan.gateway).isEqualTo("10.77.2.1")
        assertThat(plan.links).containsExactly(
            NetnsLink("server", "sb42-server", "sb42h0", "sb42n0", "10.77.2.2", Duration.ofMillis(20), null),
            NetnsLink("load1", "sb42-load1", "sb42h1", "sb42n1", "10.77.2.3", null, 1_000_000_000),
            NetnsLink("plain", "sb42-plain", "sb42h2", "sb42n2", "10.77.2.4", null, null),
        )
        assertThat(NetworkPlan.tag(4_194_304) + "h99").hasSizeLessThanOrEqualTo(15)
    }

    @Test
    fun `setup makes the bridge, then per host a namespace, a veth pair on the bridge, its address and route`() {
        val one = NetworkPlan.of("sb7", listOf(HostSpec.Netns("a")), emptySet())
        assertThat(one.setup().map { it.joinToString(" ") }).containsExactly(
            "ip link add sb7br type bridge",
            "ip addr add 10.77.0.1/24 dev sb7br",
            "ip link set sb7br up",
            "ip netns add sb7-a",
            "ip link add sb7h0 type veth peer name sb7n0",
            "ip link set sb7n0 netns sb7-a",
            "ip link set sb7h0 master sb7br up",
            "ip -n sb7-a addr add 10.77.0.2/24 dev sb7n0",
            "ip -n sb7-a link set sb7n0 up",
            "ip -n sb7-a link set lo up",
            "ip -n sb7-a route add default via 10.77.0.1",
        )
        assertThat(one.teardown().map { it.joinToString(" ") }).containsExactly("ip netns delete sb7-a", "ip link delete sb7h0", "ip link delete sb7br")
    }

    @Test
    fun `with netem each end delays half the round trip, without it only the rate is shaped (tbf)`() {
        assertThat(plan.shaping(netem = true).map { it.joinToString(" ") }).containsExactly(
            "tc qdisc add dev sb42h0 root netem delay 10000us",
            "tc -n sb42-server qdisc add dev sb42n0 root netem delay 10000us",
            "tc qdisc add dev sb42h1 root tbf rate 1000000000bit burst 1250000 latency 50ms",
            "tc -n sb42-load1 qdisc add dev sb42n1 root tbf rate 1000000000bit burst 1250000 latency 50ms",
        )
        assertThat(plan.shaping(netem = false).map { it.joinToString(" ") }).containsExactly(
            "tc qdisc add dev sb42h1 root tbf rate 1000000000bit burst 1250000 latency 50ms",
            "tc -n sb42-load1 qdisc add dev sb42n1 root tbf rate 1000000000bit burst 1250000 latency 50ms",
        )
        assertThat(NetworkPlan.tbf(1_000_000)).containsExactly("tbf", "rate", "1000000bit", "burst", "16384", "latency", "50ms")
    }

    @Test
    fun `the subnets in use are read from ip's addresses`() {
        val out = "1: lo    inet 127.0.0.1/8 scope host lo\n5: sb9br    inet 10.77.3.1/24 scope global sb9br\n6: x inet 110.77.4.1/24\n"
        assertThat(NetworkPlan.subnetsIn(out)).containsExactly(3)
    }

    @Test
    fun `leftovers are the tagged names whose runner is dead, and nothing else`() {
        val netns = "sb100-server (id: 0)\nsb200-load\nother\nsb100x\n"
        val links = "1: lo: <LOOPBACK>\n7: sb100h0@if6: <BROADCAST>\n8: sb100br: <BROADCAST>\n9: sb200h0@if2: <B>\n10: sbx: <B>\n11: eth0: <B>\n"
        val left = Leftovers.of(netns, links) { pid -> pid == 200L }
        assertThat(left).isEqualTo(Leftovers(listOf("sb100-server"), listOf("sb100h0", "sb100br")))
        assertThat(left.commands().map { it.joinToString(" ") })
            .containsExactly("ip netns delete sb100-server", "ip link delete sb100h0", "ip link delete sb100br")
        assertThat(Leftovers.of("", "") { false }.isEmpty).isTrue()
    }
}
