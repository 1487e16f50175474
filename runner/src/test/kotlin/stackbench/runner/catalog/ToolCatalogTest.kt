package stackbench.runner.catalog

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource

/** The catalog of what the lab and its tests need from outside the JDK: how each entry is found and installed. */
class ToolCatalogTest {
    @ParameterizedTest(name = "{0}: {1} {2}, essential {3}")
    @CsvSource(
        delimiter = '|',
        value = [
            "oha      | cargo  | oha                                  | true",
            "cargo    | manual | https://rustup.rs                    | false",
            "wrk      | apt    | wrk                                  | false",
            "k6       | go     | go.k6.io/k6                          | false",
            "go       | manual | https://go.dev/dl                    | false",
            "chromium | apt    | chromium                             | false",
            "ip       | apt    | iproute2                             | false",
            "sshd     | apt    | openssh-server                       | false",
            "ssh      | apt    | openssh-client                       | false",
            "setpriv  | apt    | util-linux                           | false",
            "postgresql | apt  | postgresql                           | true",
        ],
    )
    fun `every entry has an install route`(id: String, route: String, what: String, essential: Boolean) {
        val tool = ToolCatalog.byId(id)!!
        val (kind, target) = when (val how = tool.install) {
            is Install.Cargo -> "cargo" to how.crate
            is Install.Go -> "go" to how.module
            is Install.Apt -> "apt" to how.pkg
            is Install.Manual -> "manual" to how.how
        }
        assertThat(kind).isEqualTo(route)
        if (kind == "manual") assertThat(target).contains(what) else assertThat(target).isEqualTo(what)
        assertThat(tool.essential).isEqualTo(essential)
        assertThat(tool.neededBy).isNotBlank().doesNotContain("\n")
    }

    @Test
    fun `the catalog is every entry once, every load generator among them, and every build's toolchain`() {
        assertThat(ToolCatalog.all.map { it.id }).containsExactly("oha", "wrk", "k6", "cargo", "go", "chromium", "ip", "sshd", "ssh", "setpriv", "postgresql")
        assertThat(DriverCatalog.all.map { ToolCatalog.of(it) }).allSatisfy { assertThat(ToolCatalog.all).contains(it) }
        assertThat(ToolCatalog.all.mapNotNull { ToolCatalog.toolchain(it.install) }.distinct()).containsExactly(ToolCatalog.CARGO, ToolCatalog.GO)
        assertThat(ToolCatalog.all.filter { it.essential }).containsExactly(ToolCatalog.of(DriverCatalog.OHA), ToolCatalog.POSTGRESQL)
        assertThat(ToolCatalog.of(DriverCatalog.OHA).version).isEqualTo(DriverCatalog.OHA_VERSION)
        assertThat(ToolCatalog.of(DriverCatalog.K6).version).isEqualTo(DriverCatalog.K6_VERSION)
    }

    @Test
    fun `the apt packages of the entries are collected once each, in order`() {
        assertThat(ToolCatalog.aptPackages(ToolCatalog.all))
            .containsExactly("wrk", "chromium", "iproute2", "openssh-server", "openssh-client", "util-linux", "postgresql")
        val twice = ToolCatalog.IP.copy(id = "tc")
        assertThat(ToolCatalog.aptPackages(listOf(ToolCatalog.IP, ToolCatalog.of(DriverCatalog.OHA), twice, ToolCatalog.SSHD))).containsExactly("iproute2", "openssh-server")
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
        delimiter = '|',
        value = [
            "oha | oha is built with cargo, which is not installed: install Rust with rustup (https://rustup.rs) or your distribution's `cargo` package, then run ./stackbench doctor --fix",
            "k6  | k6 is built with go, which is not installed: install Go from https://go.dev/dl or your distribution's `golang` package, then run ./stackbench doctor --fix --tests",
        ],
    )
    fun `a missing toolchain says what to install and what to run then`(id: String, message: String) {
        assertThat(ToolCatalog.toolchainMissing(ToolCatalog.byId(id)!!)).isEqualTo(message)
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
        delimiter = '|',
        value = [
            "cargo    | /usr/bin:/bin  | /usr/bin/cargo, /bin/cargo, /home/u/.cargo/bin/cargo",
            "go       | /usr/bin       | /usr/bin/go, /usr/local/go/bin/go",
            "ip       | /usr/bin       | /usr/bin/ip, /usr/sbin/ip, /sbin/ip",
            "ip       | /usr/sbin      | /usr/sbin/ip, /sbin/ip",
            "sshd     | /usr/bin       | /usr/sbin/sshd",
            "setpriv  | /usr/bin       | /usr/bin/setpriv, /bin/setpriv",
            "postgresql | /usr/bin     | /usr/lib/postgresql/17/bin/postgres, /usr/lib/postgresql/16/bin/postgres, /usr/lib/postgresql/15/bin/postgres",
            "chromium | /a             | /a/chromium, /a/chromium-browser, /a/google-chrome",
            "cargo    | ''             | /home/u/.cargo/bin/cargo",
        ],
    )
    fun `an executable is looked for on PATH, then where its installer puts it`(id: String, path: String, files: String) {
        val detect = ToolCatalog.byId(id)!!.detect as Detect.Executable
        assertThat(detect.candidates(path, "/home/u")).containsExactlyElementsOf(files.split(", "))
    }

    @Test
    fun `where an executable is looked for, for a message`() {
        assertThat((ToolCatalog.CARGO.detect as Detect.Executable).searched).isEqualTo("PATH, ~/.cargo/bin")
        assertThat((ToolCatalog.SSHD.detect as Detect.Executable).searched).isEqualTo("/usr/sbin/sshd")
        assertThat((ToolCatalog.SSH.detect as Detect.Executable).searched).isEqualTo("PATH")
    }

    @ParameterizedTest(name = "{0}: \"{1}\" -> {2}")
    @CsvSource(
        delimiter = '|',
        value = [
            "oha | oha 1.16.0                                        | true",
            "oha | oha 1.15.0                                        | false",
            "oha | oha 1.16.01                                       | false",
            "oha | does not run: No such file                        | false",
            "k6  | k6 v1.8.1 (commit/devel, go1.25.1, linux/amd64)   | true",
            "k6  | k6 v1.7.0 (commit/devel, go1.8.1, linux/amd64)    | false",
            "k6  | k6 v1.8.10                                        | false",
            "wrk | wrk debian/4.1.0-3+b2 [epoll] Copyright (C) 2012  | true",
            "wrk | wrk 5.0.0                                         | true",
        ],
    )
    fun `a pinned driver counts only at its pinned release`(id: String, versionLine: String, matches: Boolean) {
        assertThat((ToolCatalog.byId(id)!!.detect as Detect.Driver).matches(versionLine)).isEqualTo(matches)
    }

    @Test
    fun `a driver's hint names the doctor command that installs it`() {
        assertThat(DriverCatalog.OHA.hint).isEqualTo("cargo install oha --version ${DriverCatalog.OHA.version} --locked --root .tools   (or: ./stackbench doctor --fix)")
        assertThat(DriverCatalog.WRK.hint).isEqualTo("apt-get install -y wrk")
    }
}
