package stackbench.runner.load

import org.assertj.core.api.Assertions.assertThat
import stackbench.runner.testing.Needs
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import stackbench.runner.catalog.DriverCatalog
import java.nio.file.Files
import java.nio.file.Path

class DriversTest {

    private fun script(dir: Path, name: String, body: String): Path {
        Files.createDirectories(dir)
        val p = dir.resolve(name)
        Files.writeString(p, "#!/bin/sh\n$body\n")
        p.toFile().setExecutable(true)
        return p
    }

    @Test
    fun `oha in the project's tools folder comes before PATH`(@TempDir dir: Path) {
        val home = dir.resolve("home")
        val local = script(home.resolve(".tools/bin"), "oha", "echo 'oha 1.16.0'")
        script(dir.resolve("bin"), "oha", "echo 'oha 0.1.0'")
        val found = Drivers.locate(DriverCatalog.OHA, home, dir.resolve("bin").toString())
        assertThat(found.executable).isEqualTo(local)
        assertThat(found.version).isEqualTo("1.16.0")
        assertThat(found.versionLine).isEqualTo("oha 1.16.0")
    }

    @Test
    fun `oha on PATH when the tools folder has none`(@TempDir dir: Path) {
        val onPath = script(dir.resolve("bin"), "oha", "echo 'oha 1.14.0'")
        val found = Drivers.locate(DriverCatalog.OHA, dir.resolve("home"), "/nonexistent:${dir.resolve("bin")}")
        assertThat(found.executable).isEqualTo(onPath)
        assertThat(found.version).isEqualTo("1.14.0")
    }

    @Test
    fun `wrk -v prints its version then its usage and exits 1, which is fine`(@TempDir dir: Path) {
        // what Debian's wrk 4.1.0 prints for -v
        script(
            dir.resolve("bin"), "wrk",
            "echo 'wrk debian/4.1.0-3+b2 [epoll] Copyright (C) 2012 Will Glozer'\necho 'Usage: wrk <options> <url>'\nexit 1",
        )
        val found = Drivers.locate(DriverCatalog.WRK, dir, dir.resolve("bin").toString())
        assertThat(found.version).isEqualTo("4.1.0")
        assertThat(found.versionLine).isEqualTo("wrk debian/4.1.0-3+b2 [epoll] Copyright (C) 2012 Will Glozer")
    }

    @Test
    fun `a missing driver names its install command`(@TempDir dir: Path) {
        assertThatThrownBy { Drivers.locate(DriverCatalog.WRK, dir, dir.toString()) }
            .isInstanceOf(DriverMissingException::class.java)
            .hasMessage("the load generator wrk is not installed (looked in PATH); install it with: apt-get install -y wrk")
        assertThatThrownBy { Drivers.locate(DriverCatalog.OHA, dir, "") }
            .isInstanceOf(DriverMissingException::class.java)
            .hasMessageContaining("oha is not installed (looked in $dir/.tools/bin and PATH)")
            .hasMessageContaining("install it with: ${DriverCatalog.OHA.install.hint}")
    }

    @Test
    fun `something that prints no version is not taken for the driver`(@TempDir dir: Path) {
        script(dir.resolve("bin"), "oha", "echo 'command not understood'")
        assertThatThrownBy { Drivers.locate(DriverCatalog.OHA, dir, dir.resolve("bin").toString()) }
            .isInstanceOf(DriverMissingException::class.java)
            .hasMessageContaining("does not look like oha")
    }

    @Test
    fun `the drivers by kind`() {
        assertThat(Drivers.driver(DriverCatalog.OHA)).isInstanceOf(OhaDriver::class.java)
        assertThat((Drivers.driver(DriverCatalog.WRK) as WrkDriver).perSecond).isTrue()
        assertThat(WrkDriver(perSecond = false).perSecond).isFalse()
    }

    @Test
    fun `the installed tools report their versions`() {
        val home = Path.of(System.getProperty("user.dir")).parent // runner/ → the project
        val oha = Drivers.find(DriverCatalog.OHA, home)
        val wrk = Drivers.find(DriverCatalog.WRK, home)
        Needs.that(oha != null || wrk != null, "neither oha nor wrk is installed: nothing to check")
        if (oha != null) assertThat(Drivers.locate(DriverCatalog.OHA, home).version).matches("\\d+\\.\\d+\\.\\d+")
        if (wrk != null) assertThat(Drivers.locate(DriverCatalog.WRK, home).version).matches("\\d+\\.\\d+\\.\\d+")
    }
}
