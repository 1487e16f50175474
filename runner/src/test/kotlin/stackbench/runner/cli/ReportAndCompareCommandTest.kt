package stackbench.runner.cli

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import stackbench.runner.report.ReportFixtures
import java.nio.file.Files
import java.nio.file.Path

class ReportAndCompareCommandTest {
    @Test
    fun `report renders a results folder and exits 0`(@TempDir dir: Path) {
        val folder = ReportFixtures.copy(ReportFixtures.SWEEP, dir)
        assertThat(execute(arrayOf("report", folder.toString()))).isEqualTo(Exit.OK)
        assertThat(folder.resolve("report.html")).isRegularFile()
        assertThat(folder.resolve("summary.md")).isRegularFile()
    }

    @Test
    fun `report of a folder without results is bad input`(@TempDir dir: Path) {
        assertThat(execute(arrayOf("report", dir.resolve("missing").toString()))).isEqualTo(Exit.BAD_INPUT)
        Files.writeString(dir.resolve("results.json"), "{not json")
        assertThat(execute(arrayOf("report", dir.toString()))).isEqualTo(Exit.BAD_INPUT)
    }

    @Test
    fun `report names a published run that the claims read, whose summary findings fills again`(@TempDir home: Path) {
        Files.createDirectories(home.resolve("docs/runs/cpu"))
        Files.createDirectories(home.resolve("docs/runs/other"))
        Files.writeString(home.resolve("docs/claims.yaml"), """
            comparisons:
              - id: pool
                figure: throughput
                run: cpu
                a: {name: pool, app: tomcat, request: "/cpu/completable-future?limit={limit}"}
                b: {name: thread, app: tomcat, request: "/cpu/direct?limit={limit}"}
                over: {limit: [100]}
                published: {a: [10], b: [20]}
        """.trimIndent())
        assertThat(stackbench.runner.findings.ClaimsParser.parse(Files.readString(home.resolve("docs/claims.yaml")), "c.yaml").comparisons).hasSize(1)
        assertThat(ReportCommand.claimsReading(home.resolve("docs/runs/cpu"), home)).isEqualTo("cpu")
        assertThat(ReportCommand.claimsReading(home.resolve("docs/runs/cpu/results.json"), home)).isEqualTo("cpu")
        assertThat(ReportCommand.claimsReading(home.resolve("docs/runs/other"), home)).isNull()
        assertThat(ReportCommand.claimsReading(home.resolve("docs"), home)).isNull()
        Files.writeString(home.resolve("docs/claims.yaml"), "comparisons: [")
        assertThat(ReportCommand.claimsReading(home.resolve("docs/runs/cpu"), home)).isNull()
    }

    @Test
    fun `compare writes compare html into B, or where asked`(@TempDir dir: Path) {
        val a = ReportFixtures.copy(ReportFixtures.COMPARE_A, dir)
        val b = ReportFixtures.copy(ReportFixtures.COMPARE_B, dir)
        assertThat(execute(arrayOf("compare", a.toString(), b.toString()))).isEqualTo(Exit.OK)
        assertThat(Files.readString(b.resolve("compare.html"))).contains("tomcat-platform", "B ÷ A decided over app processes")
        val out = dir.resolve("out/c.html")
        assertThat(execute(arrayOf("compare", a.toString(), b.toString(), "--out", out.toString()))).isEqualTo(Exit.OK)
        assertThat(out).isRegularFile()
    }

    @Test
    fun `compare with a missing side is bad input`(@TempDir dir: Path) {
        val a = ReportFixtures.copy(ReportFixtures.COMPARE_A, dir)
        assertThat(execute(arrayOf("compare", a.toString(), dir.resolve("nope").toString()))).isEqualTo(Exit.BAD_INPUT)
    }
}
