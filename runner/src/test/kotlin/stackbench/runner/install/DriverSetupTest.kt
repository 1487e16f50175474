package stackbench.runner.install

import stackbench.runner.catalog.DriverCatalog
import stackbench.runner.catalog.Install
import stackbench.runner.catalog.LoadModelKind
import java.io.ByteArrayOutputStream
import java.io.PrintStream
import java.nio.file.Path
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir

/** k6's entry: pinned in drivers.properties, installed with `go install` into the project's tools folder. */
class DriverSetupTest {
    @Test
    fun `k6 is pinned to 1_8_1 and installs from the Go module proxy into the tools folder`(@TempDir home: Path) {
        val k6 = DriverCatalog.K6
        assertThat(k6.version).isEqualTo("1.8.1")
        assertThat(k6.install).isEqualTo(Install.Go("go.k6.io/k6", "1.8.1", minutes = 3))
        assertThat(k6.install.hint).isEqualTo("GOBIN=\$PWD/.tools/bin go install go.k6.io/k6@v1.8.1")
        assertThat(k6.hint).isEqualTo("GOBIN=\$PWD/.tools/bin go install go.k6.io/k6@v1.8.1   (or: ./stackbench doctor --fix --tests)")
        val setup = DriverSetup(home, PrintStream(ByteArrayOutputStream()))
        assertThat(setup.installCommand(k6)).isEqualTo("GOBIN=${home.resolve(".tools/bin")} go install go.k6.io/k6@v1.8.1")
        assertThat(setup.missing(k6)).isEqualTo("the load generator k6 is not installed; install it with: GOBIN=${home.resolve(".tools/bin")} go install go.k6.io/k6@v1.8.1")
    }

    @Test
    fun `only k6 splits a load, and only k6 runs scenarios`() {
        assertThat(DriverCatalog.all.filter { it.splits }).containsExactly(DriverCatalog.K6)
        assertThat(DriverCatalog.all.filter { LoadModelKind.SCENARIO in it.models }).containsExactly(DriverCatalog.K6)
        assertThat(DriverCatalog.K6.localPath).isEqualTo(".tools/bin/k6")
        assertThat(DriverCatalog.K6.versionFlag).isEqualTo("version")
        assertThat(DriverCatalog.K6.essential).isFalse()
    }
}
