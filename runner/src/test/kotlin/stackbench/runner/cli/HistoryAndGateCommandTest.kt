package stackbench.runner.cli

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import stackbench.runner.gate.GateFixtures
import stackbench.runner.gate.GateFixtures.PLATFORM
import java.nio.file.Files
import java.nio.file.Path

class HistoryAndGateCommandTest {
    private fun runs(dir: Path): Triple<Path, Path, Path> {
        val results = dir.resolve("results")
        val a = GateFixtures.write(GateFixtures.run("t-1", "2026-11-27T01:00:00Z", commit = "aaaaaaa"), results)
        val b = GateFixtures.write(GateFixtures.run("t-2", "2026-11-27T02:00:00Z", commit = "bbbbbbb"), results)
        val slow = GateFixtures.write(GateFixtures.run("t-3", "2026-11-27T03:00:00Z", commit = "ccccccc", scale = mapOf(PLATFORM to 0.7)), results)
        return Triple(a, b, slow)
    }

    @Test
    fun `history rebuilds from results folders, then lists the runs and writes the page`(@TempDir dir: Path) {
        runs(dir)
        val db = dir.resolve("h.sqlite").toString()
        val rebuilt = captured("history", "--history", db, "--rebuild", dir.resolve("results").toString())
        assertThat(rebuilt.code).isEqualTo(Exit.OK)
        assertThat(rebuilt.out).contains("history: 3 run(s) indexed")
        val page = dir.resolve("page/history.html")
        val shown = captured("history", "--history", db, "t", "--html", page.toString())
        assertThat(shown.code).describedAs(shown.err).isEqualTo(Exit.OK)
        assertThat(shown.out).contains("suite t: 3 run(s)", "t-2 → t-3: commit bbbbbbb → ccccccc", PLATFORM, "page: $page")
        assertThat(Files.readString(page)).contains("stackbench history", "sb-data")
        val one = captured("history", "--history", db, "t", PLATFORM, "--html", page.toString())
        assertThat(one.out).contains(PLATFORM).doesNotContain(GateFixtures.VIRTUAL)
    }

    @Test
    fun `history of an unknown suite or configuration is bad input that names what there is`(@TempDir dir: Path) {
        runs(dir)
        val db = dir.resolve("h.sqlite").toString()
        captured("history", "--history", db, "--rebuild", dir.resolve("results").toString())
        val suite = captured("history", "--history", db, "nope")
        assertThat(suite.code).isEqualTo(Exit.BAD_INPUT)
        assertThat(suite.err).contains("no run of suite 'nope'", "its suites: t")
        val key = captured("history", "--history", db, "t", "x/y/z", "--html", dir.resolve("p.html").toString())
        assertThat(key.code).isEqualTo(Exit.BAD_INPUT)
        assertThat(key.err).contains("no configuration x/y/z", PLATFORM)
    }

    @Test
    fun `gate exits 0 on two runs of the same code, 1 on a slower run, with JUnit and summary written`(@TempDir dir: Path) {
        val (a, b, slow) = runs(dir)
        val junit = dir.resolve("out/junit.xml")
        val summary = dir.resolve("out/summary.md")
        val same = captured("gate", "--baseline", a.toString(), "--current", b.toString(), "--junit", junit.toString(), "--summary", summary.toString())
        assertThat(same.code).describedAs(same.err).isEqualTo(Exit.OK)
        assertThat(same.out).contains("## stackbench gate: ✅ passed", "gate: passed")
        assertThat(Files.readString(junit)).contains("failures=\"0\"")
        val slower = captured("gate", "--baseline", b.toString(), "--current", slow.toString(), "--threshold", "5%",
            "--junit", junit.toString(), "--summary", summary.toString())
        assertThat(slower.code).isEqualTo(Exit.GATE_SLOWER)
        assertThat(slower.err).contains("gate failed", PLATFORM, "throughput 0.70×")
        assertThat(Files.readString(junit)).contains("failures=\"1\"")
        // the summary is appended to, as GITHUB_STEP_SUMMARY expects
        assertThat(Files.readString(summary)).contains("✅ passed", "❌ slower")
    }

    @Test
    fun `gate resolves latest and run ids through the history`(@TempDir dir: Path) {
        val (_, _, slow) = runs(dir)
        val db = dir.resolve("h.sqlite").toString()
        captured("history", "--history", db, "--rebuild", dir.resolve("results").toString())
        val latest = captured("gate", "--history", db, "--baseline", "latest", "--current", slow.toString())
        assertThat(latest.code).isEqualTo(Exit.GATE_SLOWER)
        assertThat(latest.out).contains("against baseline `t-2`")
        val byId = captured("gate", "--history", db, "--baseline", "t-1", "--current", dir.resolve("results/t-2").toString())
        assertThat(byId.code).isEqualTo(Exit.OK)
        assertThat(byId.out).contains("against baseline `t-1`")
        val first = captured("gate", "--history", db, "--baseline", "latest", "--current", dir.resolve("results/t-1").toString())
        assertThat(first.code).isEqualTo(Exit.GATE_CANNOT_COMPARE)
        assertThat(first.err).contains("no baseline", "before t-1")
    }

    @Test
    fun `gate exits 2 on runs that cannot be compared, saying why`(@TempDir dir: Path) {
        val (a, _, _) = runs(dir)
        val other = GateFixtures.write(GateFixtures.run("u-1", "2026-11-27T04:00:00Z", suite = "u"), dir.resolve("results"))
        val ran = captured("gate", "--baseline", a.toString(), "--current", other.toString())
        assertThat(ran.code).isEqualTo(Exit.GATE_CANNOT_COMPARE)
        assertThat(ran.err).contains("cannot be compared: different suites")
        val few = GateFixtures.write(GateFixtures.run("t-9", "2026-11-27T05:00:00Z", processes = 1), dir.resolve("results"))
        val fewer = captured("gate", "--baseline", a.toString(), "--current", few.toString())
        assertThat(fewer.code).isEqualTo(Exit.GATE_CANNOT_COMPARE)
        assertThat(fewer.err).contains("too few processes to decide")
    }

    @Test
    fun `gate refuses a bad threshold or a missing baseline as bad input`(@TempDir dir: Path) {
        val (a, b, _) = runs(dir)
        val threshold = captured("gate", "--baseline", a.toString(), "--current", b.toString(), "--threshold", "150%")
        assertThat(threshold.code).isEqualTo(Exit.BAD_INPUT)
        assertThat(threshold.err).contains("not a threshold")
        val missing = captured("gate", "--history", dir.resolve("h.sqlite").toString(), "--baseline", "no-such-run", "--current", b.toString())
        assertThat(missing.code).isEqualTo(Exit.BAD_INPUT)
        assertThat(missing.err).contains("--baseline no-such-run")
    }
}
