package stackbench.runner.cli

import com.github.ajalt.clikt.core.parse
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import stackbench.runner.results.Fixtures
import stackbench.runner.results.ResultsStore
import stackbench.runner.results.RunResult
import stackbench.runner.results.RunStatus
import java.io.ByteArrayOutputStream
import java.io.PrintStream
import java.nio.file.Files
import java.nio.file.Path
import java.util.zip.GZIPInputStream

/** `findings-run`: its dry run prints the plan and starts nothing; bad ids and too few repetitions are bad input. */
class FindingsRunCommandTest {
    private fun run(vararg args: String): Ran = captured(*args)

    @Test
    fun `the dry run of one claim prints its run's cells, the comparisons it drives and the estimate`(@TempDir dir: Path) {
        val r = run("findings-run", "cpu-offload-p99", "--dry-run", "--budget", "20m", "--out", dir.toString())
        assertThat(r.code).describedAs(r.err).isEqualTo(Exit.OK)
        val lines = r.out.lines()
        assertThat(lines.first()).isEqualTo(
            "findings-run: 1 run(s) for cpu-offload-p99; 3 processes a configuration (or the suite's own when more) at scale 1, then rounds until decided for at most 20m a run (--budget)")
        assertThat(lines).contains(
            "    tomcat/cpu-direct-limit50000/c400",
            "    tomcat/cpu-completable-future-limit300000/c400",
            "  driven until decided (4):",
            "    cpu-steady-tomcat-p99: limit 200000 (p99, ±10 %)",
        )
        val estimate = Regex("cpu-bound-offload \\(suites/cpu-bound-offload.yaml\\): 8 configurations × 3 processes × 1 window\\(s\\) a process = 24 cells, estimated ((?:\\d+h)?\\d+m(?:\\d\\ds)?) \\+ up to 20m00s until decided \\((\\d) look\\(s\\)\\)")
            .matchEntire(lines.single { it.startsWith("cpu-bound-offload ") })?.groupValues?.get(1)
        assertThat(estimate).isNotNull()
        assertThat(lines.last { it.isNotBlank() }).matches(
            "total: 1 run\\(s\\), 8 configurations, 24 cells, 4 comparisons driven, 0 left to `findings`; " +
                "estimated $estimate for the planned repetitions \\+ up to 20m00s until decided \\(1 run\\(s\\) × 20m00s\\) = \\S+ at most")
        assertThat(dir).isEmptyDirectory()
    }

    @Test
    fun `without --budget each run takes its suite's own until-decided, fixed in it before the run`() {
        // suites/jdk.yaml sets until-decided: 8m; a suite that sets none gets the default of 60m
        val r = run("findings-run", "jdk-wait", "--dry-run")
        assertThat(r.code).describedAs(r.err).isEqualTo(Exit.OK)
        val lines = r.out.lines()
        assertThat(lines.first()).endsWith("then rounds until decided for at most each suite's own `until-decided` (1h where a suite sets none)")
        // jdk's plan estimates a round at 5m27s: 8 minutes buy one, so two looks
        assertThat(lines.single { it.startsWith("jdk ") }).endsWith(" + up to 8m00s until decided (2 look(s))")
        assertThat(lines.last { it.isNotBlank() }).contains("+ up to 8m00s until decided (1 run(s) × 8m00s)")
    }

    @Test
    fun `the dry run of every claim covers every run and names the rows left to findings`() {
        val r = run("findings-run", "--dry-run", "--repetitions", "5")
        assertThat(r.code).describedAs(r.err).isEqualTo(Exit.OK)
        assertThat(r.out).startsWith("findings-run: 17 run(s) for every claim of docs/claims.yaml; 3 processes a configuration (or the suite's own when more), 5 repetitions (with restart: app, windows a process) at scale 1")
        assertThat(r.out).contains("servers-startup (suites/servers-startup.yaml): 3 configurations × 5 processes × 1 window(s) a process = 15 cells")
        // the event-loop claims run in their own full-length suite: Tomcat's request thread, the event loop and
        // Schedulers.parallel() at the four heavy limits, WebFlux's Dispatchers.Default and Mono at two, each cell a process
        // (restart: cell): 3 processes × 5 repetitions
        assertThat(r.out).contains("cpu-bound-event-loop (suites/cpu-bound-event-loop.yaml): 16 configurations × 15 processes × 1 window(s) a process = 240 cells")
        assertThat(r.out).contains("  left to `findings`, their sides in two runs (4):\n    cpu-steady-quota-vs-pinned-direct: limit 50000 (a in cpu-bound-offload, b in cpu-bound-pinned-offload)")
        assertThat(r.out).contains("blocking-io (suites/blocking-io.yaml): 5 configurations × 5 processes × 1 window(s) a process = 25 cells").contains("; no comparison to drive")
        // the event loop's claimed row is measured as the article ran it, cold: its warmed row claims nothing
        assertThat(r.out).contains("blocking-io-cold (suites/blocking-io-cold.yaml): 1 configurations × 5 processes × 1 window(s) a process = 5 cells")
        assertThat(r.out.lines().last { it.isNotBlank() }).startsWith("total: 17 run(s), 143 configurations, ")
    }

    @Test
    fun `by default a suite that asks more repetitions keeps them`() {
        val r = run("findings-run", "servers-startup", "--dry-run")
        assertThat(r.code).isEqualTo(Exit.OK)
        assertThat(r.out).contains("servers-startup (suites/servers-startup.yaml): 3 configurations × 150 processes × 1 window(s) a process = 450 cells")
    }

    @Test
    fun `an unknown id is bad input listing the claims and the runs`() {
        val r = run("findings-run", "cpu-offload", "no-such-claim", "--dry-run")
        assertThat(r.code).isEqualTo(Exit.BAD_INPUT)
        assertThat(r.err).contains("stackbench: no claim, comparison or run named 'no-such-claim' in docs/claims.yaml; claims: blocking-little,")
            .contains("runs: cpu-bound, cpu-bound-event-loop, cpu-bound-offload, cpu-bound-coop, cpu-bound-light, cpu-bound-cold, cpu-bound-pinned, cpu-bound-pinned-offload, blocking-io, blocking-io-cold, event-loop-completable-future, event-loop, servers-startup, servers, servers-peak, io-downstream-threads, io-downstream, io-downstream-clients, virtual-threads")
        assertThat(r.out).isEmpty()
    }

    @Test
    fun `fewer than three repetitions cannot decide, and say so`() {
        val r = run("findings-run", "--repetitions", "2", "--dry-run")
        assertThat(r.code).isEqualTo(Exit.BAD_INPUT)
        assertThat(r.err).contains("--repetitions 2 cannot decide anything: with restart: cell each repetition is a process, and a comparison needs 3 a side")
    }

    @Test
    fun `publishing copies the finished runs of a clean tree compressed, with their pages and the files they link, and leaves an unfinished or uncommitted one as it was`(@TempDir dir: Path) {
        val from = dir.resolve("results")
        val to = dir.resolve("docs/runs")
        val clean = Fixtures.environment().copy(gitCommit = "7a29a2a442df3d61d5870437e2be2c0cdd1f7f93", gitDirty = false)
        fun write(run: String, status: RunStatus, env: stackbench.runner.results.Environment = clean) {
            val folder = from.resolve(run)
            ResultsStore(folder).write(RunResult(run = Fixtures.info().copy(suite = run, status = status), environment = env))
            Files.writeString(folder.resolve("summary.md"), "# $run\n")
            Files.writeString(folder.resolve("suite.yaml"), "name: $run\n")
        }
        write("done", RunStatus.COMPLETE)
        // its pages link a flame graph (twice), a file outside the run's folder and one that is not there
        Files.writeString(from.resolve("done/summary.md"), "# done\n[flame](cells/001-a/profile.html) [out](../secret.txt) [gone](cells/002-b/profile.html)\n")
        Files.writeString(from.resolve("done/report.html"), "<a href=\"cells/001-a/profile.html#top\">flame</a>")
        Files.createDirectories(from.resolve("done/cells/001-a"))
        Files.writeString(from.resolve("done/cells/001-a/profile.html"), "<html>flame</html>")
        Files.writeString(from.resolve("done/cells/001-a/app.log"), "not linked")
        Files.writeString(from.resolve("secret.txt"), "outside")
        write("cut", RunStatus.INTERRUPTED)
        write("dirty", RunStatus.COMPLETE, clean.copy(gitDirty = true, gitChanges = listOf(" M runner/src/main/kotlin/A.kt", "?? notes.txt")))
        write("nogit", RunStatus.COMPLETE, Fixtures.environment())
        val out = ByteArrayOutputStream()
        val saved = System.out
        System.setOut(PrintStream(out, true, Charsets.UTF_8))
        try { Publishing.publish(listOf("done", "cut", "never", "dirty", "nogit"), from, to) } finally { System.setOut(saved) }

        val gz = to.resolve("done/results.json.gz")
        val copied = GZIPInputStream(Files.newInputStream(gz)).use { it.readAllBytes() }
        assertThat(copied).isEqualTo(Files.readAllBytes(from.resolve("done/results.json")))
        assertThat(ResultsStore.read(to.resolve("done")).run.suite).isEqualTo("done")
        assertThat(to.resolve("done/summary.md")).content().startsWith("# done")
        assertThat(to.resolve("done/report.html")).exists()
        assertThat(to.resolve("done/cells/001-a/profile.html")).hasContent("<html>flame</html>")
        assertThat(to.resolve("done/cells/001-a/app.log")).doesNotExist()
        assertThat(to.resolve("secret.txt")).doesNotExist()
        assertThat(to.resolve("done/suite.yaml")).hasContent("name: done")
        assertThat(to.resolve("cut")).doesNotExist()
        assertThat(to.resolve("dirty")).doesNotExist()
        assertThat(to.resolve("nogit")).doesNotExist()
        assertThat(out.toString(Charsets.UTF_8).lines()).contains(
            "published $to/done: 5 files (1 linked by its pages), 0 KiB",
            "not published: cut is interrupted in $from/cut; finish it first (findings-run cut resumes it)",
            "not published: never has no results in $from/never",
            "not published: dirty was made from a tree with uncommitted changes at 7a29a2a442: M runner/src/main/kotlin/A.kt, ?? notes.txt; " +
                "commit, then run it again into another folder",
            "not published: nogit records no git commit (made outside a clone?); commit, then run it again into another folder",
        )
    }

    /** [command] parsed with [args], as `main` would: its exit code and what it printed (a bad input's message too). */
    private fun parsed(command: FindingsRunCommand, vararg args: String): Pair<Int, String> {
        val out = ByteArrayOutputStream()
        val saved = System.out
        System.setOut(PrintStream(out, true, Charsets.UTF_8))
        val code = try {
            command.parse(args.toList())
            Exit.OK
        } catch (e: com.github.ajalt.clikt.core.ProgramResult) {
            e.statusCode
        } catch (e: BadInput) {
            println(e.message)
            Exit.BAD_INPUT
        } finally {
            System.setOut(saved)
        }
        return code to out.toString(Charsets.UTF_8)
    }

    @Test
    fun `each run goes through the lab in turn, one that cannot run does not stop the next, and the exit code says so`(@TempDir dir: Path) {
        // an earlier cpu-bound-offload run at another scale is not resumed into
        val suiteText = Files.readString(Path.of("../suites/cpu-bound-offload.yaml"))
        ResultsStore(dir.resolve("cpu-bound-offload")).write(RunResult(
            run = Fixtures.info().copy(suite = "cpu-bound-offload", suiteText = suiteText, scale = 0.2, restart = "cell"), environment = Fixtures.environment()))
        val ran = mutableListOf<String>()
        val lab = LabRunner { suite, plan, source, scale, earlier, budget, folder, epilogue ->
            ran += "${suite.name} ${source.path} scale $scale budget $budget earlier ${earlier != null} in ${folder.fileName}"
            // a little spread between processes: with none at all no interval is honest
            val cells = plan.cells.map { Fixtures.cell(it, throughput = 1000.0 + it.repetition) }
            val result = RunResult(run = Fixtures.info(cells.size).copy(suite = suite.name, status = RunStatus.COMPLETE), environment = Fixtures.environment(),
                cells = cells, decisions = stackbench.runner.decide.SuiteDecisions.decide(suite.comparisons, cells))
            epilogue(result, folder)
            result
        }
        val (code, text) = parsed(FindingsRunCommand(lab) { emptyList() }, "cpu-quota", "cpu-pinned", "--out", dir.toString(), "--budget", "5m")
        assertThat(code).describedAs(text).isEqualTo(Exit.CELL_FAILED)
        assertThat(ran).containsExactly("cpu-bound-pinned-offload suites/cpu-bound-pinned-offload.yaml scale 1.0 budget PT5M earlier false in cpu-bound-pinned-offload")
        assertThat(text).contains("=== cpu-bound-offload: not run: ${dir.resolve("cpu-bound-offload")} cannot be resumed: it was run at --scale 0.2, not 1.0; give another --out, or move it away")
        assertThat(text).containsPattern("=== cpu-bound-pinned-offload: took \\d+s of machine time; 8 of 8 driven comparisons decided")
        assertThat(text).contains("findings-run: 1 of 2 run(s) complete, in ")
    }

    @Test
    fun `a run begun at another commit is not resumed, since a run is published from one commit`(@TempDir dir: Path) {
        val head = stackbench.runner.env.EnvironmentProbe.gitCommit(Home.path)
        org.junit.jupiter.api.Assumptions.assumeTrue(head != null, "the tests run outside a git clone")
        val suiteText = Files.readString(Path.of("../suites/cpu-bound-offload.yaml"))
        ResultsStore(dir.resolve("cpu-bound-offload")).write(RunResult(
            run = Fixtures.info().copy(suite = "cpu-bound-offload", suiteText = suiteText, restart = "cell"),
            environment = Fixtures.environment().copy(gitCommit = "0123456789abcdef0123456789abcdef01234567", gitDirty = false)))
        val lab = LabRunner { _, _, _, _, _, _, _, _ -> error("no run may start") }
        val (code, text) = parsed(FindingsRunCommand(lab) { emptyList() }, "cpu-bound-offload", "--out", dir.toString())
        assertThat(code).describedAs(text).isEqualTo(Exit.CELL_FAILED)
        assertThat(text).contains("=== cpu-bound-offload: not run: ${dir.resolve("cpu-bound-offload")} cannot be resumed: it began at commit 0123456789 " +
            "and this clone is at ${head!!.take(10)}, and a run is published from one commit: resume it in the clone it began in; give another --out, or move it away")
    }

    @Test
    fun `a run whose apps cannot start stops everything before the first cell, naming it and the runs that could go`(@TempDir dir: Path) {
        val ran = mutableListOf<String>()
        val lab = LabRunner { suite, _, _, _, _, _, _, _ -> ran += suite.name; error("no run may start") }
        val missing: (stackbench.runner.plan.Plan) -> List<String> = { plan ->
            if (plan.suite.name == "jdk") listOf("apps.tomcat-21.jdk: no JDK 21 is installed") else emptyList()
        }
        fun parse(vararg args: String) = parsed(FindingsRunCommand(lab, missing), *args)
        val (dryCode, dry) = parse("blocking-io-cold", "jdk", "--dry-run", "--out", dir.toString())
        assertThat(dryCode).describedAs(dry).isEqualTo(Exit.OK)
        assertThat(dry).contains("  cannot start: apps.tomcat-21.jdk: no JDK 21 is installed")
        assertThat(dry.lines().filter { it.startsWith("  cannot start") }).hasSize(1)

        val (code, text) = parse("blocking-io-cold", "jdk", "--out", dir.toString())
        assertThat(code).describedAs(text).isEqualTo(Exit.BAD_INPUT)
        assertThat(text).contains("1 of 2 run(s) cannot start; nothing was run:\n  jdk: apps.tomcat-21.jdk: no JDK 21 is installed\n" +
            "fix that first, or name the others to run them now: blocking-io-cold")
        assertThat(ran).isEmpty()
        assertThat(dir).isEmptyDirectory()
    }
}
