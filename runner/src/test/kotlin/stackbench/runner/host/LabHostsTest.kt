package stackbench.runner.host

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.suite.HostPlacement
import stackbench.runner.suite.HostSpec
import stackbench.runner.suite.HostsSpec

class LabHostsTest {
    @Test
    fun `hosts of kind local under any name are this machine at loopback, each role on the host placed`() {
        val spec = HostsSpec(listOf(HostSpec.Local("local"), HostSpec.Local("here")), HostPlacement(app = "here"))
        LabHosts.open(spec, ProcessRegistry(), "sb1").use { hosts ->
            assertThat(hosts.network).isNull()
            assertThat(hosts.roles.app.name).isEqualTo("here")
            assertThat(hosts.roles.app.address).isEqualTo("127.0.0.1")
            assertThat(hosts.roles.driver.name).isEqualTo("local")
            assertThat(hosts.describe()).containsExactly(
                stackbench.runner.results.HostRecord("local", "local", "127.0.0.1", listOf("downstream", "load")),
                stackbench.runner.results.HostRecord("here", "local", "127.0.0.1", listOf("app")),
            )
            assertThat(hosts.stoppedRelaysCpuMs()).isNull()
        }
    }

    @Test
    fun `the default places every role on the built-in local host`() {
        LabHosts.open(HostsSpec.LOCAL, ProcessRegistry(), "sb1").use { hosts ->
            assertThat(hosts.roles).isEqualTo(RoleHosts(hosts.roles.app, hosts.roles.app, listOf(hosts.roles.app)))
            assertThat(hosts.describe().single().roles).containsExactly("app", "downstream", "load")
        }
    }
}
