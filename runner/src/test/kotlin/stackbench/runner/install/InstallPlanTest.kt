package stackbench.runner.install

import stackbench.runner.catalog.Tool
import stackbench.runner.catalog.ToolCatalog
import java.nio.file.Path
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource

/** What `doctor --fix` plans to run, given what is present: no process is started. */
class InstallPlanTest {
    private val home = Path.of("/lab")
    private val root = Privileges(root = true, sudo = false, aptGet = true)

    /** Every tool present (at /bin/<id>) but [missing]. */
    private fun present(vararg missing: String): (Tool) -> String? = { tool -> if (tool.id in missing) null else "/opt/${tool.id}/bin/${tool.id}" }

    private fun plan(missing: String, tests: Boolean, privileges: Privileges = root) =
        InstallPlan.of(ToolCatalog.all, present(*missing.split(' ').filter { it.isNotEmpty() }.toTypedArray()), tests, privileges, home, Path.of("/cache"))

    @ParameterizedTest(name = "missing [{0}], --tests {1}: installs [{2}], leaves [{3}]")
    @CsvSource(
        delimiter = '|',
        value = [
            "''                                 | false | ''                                     | ''",
            "''                                 | true  | ''                                     | ''",
            "oha                                | false | oha                                    | ''",
            "oha k6 chromium                    | false | oha                                    | ''",
            "oha k6 chromium                    | true  | chromium oha k6                        | ''",
            "k6 wrk chromium ip sshd ssh setpriv | false | ''                                    | ''",
            "k6 wrk chromium ip sshd ssh setpriv | true  | wrk chromium ip sshd ssh setpriv k6   | ''",
            "oha cargo                          | false | ''                                     | oha",
            "oha cargo k6 go                    | true  | ''                                     | oha k6",
            "oha k6 go                          | true  | oha                                    | k6",
            "cargo go                           | true  | ''                                     | ''",
            "postgresql                         | false | postgresql                             | ''",
            "oha postgresql wrk                 | false | postgresql oha                         | ''",
        ],
    )
    fun `what is installed and what is left, given what is missing`(missing: String, tests: Boolean, installs: String, left: String) {
        val plan = plan(missing, tests)
        assertThat(plan.installs.joinToString(" ")).isEqualTo(installs)
        assertThat(plan.left.joinToString(" ") { it.id }).isEqualTo(left)
        assertThat(plan.isEmpty).isEqualTo(installs.isEmpty())
    }

    @Test
    fun `the missing apt packages are one apt-get install, after one apt-get update`() {
        val plan = plan("chromium ip sshd ssh", tests = true)
        assertThat(plan.apt.map { it.toString() }).containsExactly(
            "DEBIAN_FRONTEND=noninteractive apt-get update -qq",
            "DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium iproute2 openssh-server openssh-client",
        )
        assertThat(plan.apt.last().tools).containsExactly("chromium", "ip", "sshd", "ssh")
        assertThat(plan.builds).isEmpty()
        assertThat(plan.messages).isEmpty()
    }

    @Test
    fun `without root apt-get runs through sudo`() {
        val plan = plan("wrk", tests = true, privileges = Privileges(root = false, sudo = true, aptGet = true))
        assertThat(plan.apt.map { it.command.joinToString(" ") }).containsExactly(
            "sudo env DEBIAN_FRONTEND=noninteractive apt-get update -qq",
            "sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk",
        )
        assertThat(plan.apt.map { it.env }).containsOnly(emptyMap())
    }

    @ParameterizedTest(name = "root {0}, sudo {1}, apt-get {2}")
    @CsvSource(
        delimiter = '|',
        value = [
            "false | false | true  | chromium, sshd need apt-get as root: run ./stackbench doctor --fix --tests as root, or as root: apt-get update && apt-get install -y chromium openssh-server",
            "true  | false | false | chromium, sshd are installed with apt-get, which this machine does not have: install chromium openssh-server with its package manager",
        ],
    )
    fun `where apt-get cannot run, the plan says what to install instead`(root: Boolean, sudo: Boolean, aptGet: Boolean, message: String) {
        val plan = plan("chromium sshd", tests = true, privileges = Privileges(root, sudo, aptGet))
        assertThat(plan.apt).isEmpty()
        assertThat(plan.messages).containsExactly(message)
        assertThat(plan.left.map { it.id }).containsExactly("chromium", "sshd")
    }

    @Test
    fun `oha and k6 are built with the toolchains where they were found, pinned, into the tools folder`() {
        val plan = plan("oha k6", tests = true)
        assertThat(plan.builds.map { it.toString() }).containsExactly(
            "CARGO_TARGET_DIR=/cache/cargo-target /opt/cargo/bin/cargo install oha --version 1.16.0 --locked --force --root /lab/.tools",
            "GOBIN=/lab/.tools/bin /opt/go/bin/go install go.k6.io/k6@v1.8.1",
        )
        assertThat(plan.builds.map { it.minutes }).containsExactly(6, 3)
    }

    @Test
    fun `a missing toolchain is a message naming what to install, not a command that cannot run`() {
        val plan = plan("oha cargo k6", tests = true)
        assertThat(plan.messages).containsExactly(
            "oha is built with cargo, which is not installed: install Rust with rustup (https://rustup.rs) or your distribution's `cargo` package, then run ./stackbench doctor --fix",
        )
        assertThat(plan.builds.map { it.tools }).containsExactly(listOf("k6"))
    }
}
