package stackbench.runner.install

import stackbench.runner.catalog.DriverCatalog
import stackbench.runner.catalog.Tool
import stackbench.runner.catalog.ToolCatalog
import java.nio.file.Path
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource

/** `doctor`'s line for each catalog entry, given what was found. */
class ToolChecksTest {
    private val home = Path.of("/lab")

    private fun checks(missing: String, tests: Boolean, found: Map<String, Found> = emptyMap()): Map<String, Check> {
        val gone = missing.split(' ').filter { it.isNotEmpty() }.toSet()
        val look: (Tool) -> Found = { t -> found[t.id] ?: if (t.id in gone) Found(null, "not installed") else Found("/bin/${t.id}", "/bin/${t.id}") }
        return ToolChecks.of(ToolCatalog.all, look, tests, home).associateBy { it.name }
    }

    /** ok, warn or FAIL, as doctor prints it. */
    private fun Check.status() = if (ok) "ok" else if (essential) "FAIL" else "warn"

    @ParameterizedTest(name = "missing [{0}], --tests {1}: {2} is {3}")
    @CsvSource(
        delimiter = '|',
        value = [
            "''           | false | oha      | ok",
            "oha          | false | oha      | FAIL",
            "chromium     | false | chromium | warn",
            "chromium     | true  | chromium | FAIL",
            "k6           | false | k6       | warn",
            "k6           | true  | k6       | FAIL",
            "cargo        | true  | cargo    | warn",
            "cargo oha    | false | cargo    | FAIL",
            "go k6        | false | go       | warn",
            "go k6        | true  | go       | FAIL",
        ],
    )
    fun `a missing entry fails when what was asked for needs it, and warns otherwise`(missing: String, tests: Boolean, id: String, status: String) {
        assertThat(checks(missing, tests).getValue(id).status()).isEqualTo(status)
    }

    @Test
    fun `each missing entry says how to fix it`() {
        val checks = checks("oha cargo k6 chromium", tests = false)
        assertThat(checks.getValue("oha").fix).isEqualTo(ToolCatalog.toolchainMissing(ToolCatalog.of(DriverCatalog.OHA)))
        assertThat(checks.getValue("cargo").fix)
            .isEqualTo("install Rust with rustup (https://rustup.rs) or your distribution's `cargo` package, then run ./stackbench doctor --fix")
        assertThat(checks.getValue("k6").fix)
            .isEqualTo("./stackbench doctor --fix --tests   (or: GOBIN=/lab/.tools/bin go install go.k6.io/k6@v1.8.1)")
        assertThat(checks.getValue("chromium").fix).isEqualTo("./stackbench doctor --fix --tests   (or as root: apt-get install -y chromium)")
        assertThat(checks.getValue("chromium").found).isEqualTo("not installed — the report's browser test, and `report --screenshot`")
    }

    @Test
    fun `a driver at another release than its pinned one is rebuilt`() {
        val checks = checks("", tests = false, found = mapOf("oha" to Found(null, "/lab/.tools/bin/oha is not the pinned 1.16.0: it printed \"oha 1.15.0\"")))
        val oha = checks.getValue("oha")
        assertThat(oha.status()).isEqualTo("FAIL")
        assertThat(oha.fix).isEqualTo("./stackbench doctor --fix   (or: cargo install oha --version 1.16.0 --locked --force --root /lab/.tools)")
        assertThat(checks.getValue("cargo").status()).isEqualTo("ok")
    }
}
