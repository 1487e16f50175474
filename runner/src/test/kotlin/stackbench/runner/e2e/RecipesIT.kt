package stackbench.runner.e2e

import com.sun.net.httpserver.HttpServer
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Order
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import org.junit.jupiter.api.parallel.ResourceLock
import stackbench.runner.results.Flags
import stackbench.runner.results.ResultsStore
import stackbench.runner.testing.Background
import stackbench.runner.testing.CiRecipes
import stackbench.runner.testing.Needs
import stackbench.runner.testing.RunnerCommand
import stackbench.runner.testing.SharedMachine
import java.net.InetSocketAddress
import java.nio.file.Files
import java.nio.file.Path
import java.util.zip.ZipEntry
import java.util.zip.ZipOutputStream

/**
 * The CI recipes (examples/ci/) run step by step on this machine ([CiRecipes]): each job as its CI would run it, in a
 * clone of this project, on the suite they gate (the example own service), shortened by the recipes' own RUN_ARGS
 * (`--scale 0.3 --processes 2`). A gate's verdict on unchanged code may be 0 or, on noise, 1 (2 only where a busy host
 * took windows out, [gated]); what must hold is that every step ran, the gate compared the two runs, and the summary
 * and the JUnit report are where the CI reads them.
 */
@Background
@Order(3)
@ResourceLock(SharedMachine.LANE_2)
class RecipesIT {
    private val home = RunnerCommand.home
    private val shortRuns = mapOf("RUN_ARGS" to "--scale 0.3 --processes 2")

    private fun wrk() = Needs.that(listOf("/usr/bin/wrk", "/usr/local/bin/wrk").any { Files.isExecutable(Path.of(it)) }, "wrk is not installed")

    /**
     * The gate's exit on unchanged code: 0, or 1 on noise. 2 (cannot compare) only where the machine took windows out:
     * some cell of [runs] carries a flag that says the instrument failed (`host-slow` when other work shares a busy
     * host), so fewer than two processes a side were left to decide on; never for the wiring (another suite, no
     * configuration in both, a flag the gate refused), which leaves every window in.
     */
    private fun gated(exit: Int?, output: String, vararg runs: Path) {
        if (exit != 2) {
            assertThat(exit).`as`(output).isIn(0, 1)
            return
        }
        val leftOut = runs.filter { Files.isDirectory(it) }.flatMap { ResultsStore.read(it).cells }.flatMap { Flags.instrument(it) }.map { it.code }
        assertThat(leftOut).`as`("the gate could not compare, and no window was taken out by the instrument:\n$output").isNotEmpty()
        assertThat(output).contains("too few processes to decide")
    }

    /** A branch of the clone's origin at HEAD, for the both-sides jobs' target branch (whatever branch the tests run on). */
    private fun targetBranch(workspace: Path): String {
        CiRecipes.run(listOf("git", "update-ref", "refs/remotes/origin/recipes-target", "HEAD"), workspace)
        return "recipes-target"
    }

    /** The branch the project's checkout is on: the clone's origin has it, for GitLab's `git fetch origin BRANCH`. */
    private fun homeBranch(): String {
        val p = ProcessBuilder("git", "rev-parse", "--abbrev-ref", "HEAD").directory(home.toFile()).start()
        val branch = p.inputStream.readAllBytes().decodeToString().trim()
        p.waitFor()
        Needs.that(branch.isNotEmpty() && branch != "HEAD", "the checkout is on a branch (it is detached)")
        return branch
    }

    @Test
    fun `the GitHub workflow's self-hosted job keeps main's runs and gates a pull request against the latest`(@TempDir dir: Path) {
        wrk()
        val workflow = home.resolve("examples/ci/github/benchmarks.yml")
        val runs = dir.resolve("runner-runs")
        val overrides = shortRuns + ("RUNS" to runs.toString())
        fun github(event: String, id: String) = mapOf("GITHUB_EVENT_NAME" to event, "GITHUB_RUN_ID" to id,
            "GITHUB_STEP_SUMMARY" to dir.resolve("summary-$id.md").toString(), "GITHUB_SHA" to "HEAD")

        val push = CiRecipes.github(workflow, "self-hosted", CiRecipes.workspace(home, dir.resolve("push")), github("push", "101"), overrides)
        assertThat(push.steps.map { it.exit }).`as`(push.toString()).containsExactly(0, 0, null, 0)
        assertThat(ResultsStore.read(runs.resolve("101")).cells).hasSize(2)
        assertThat(runs.resolve("main.sqlite")).exists()

        val pr = CiRecipes.github(workflow, "self-hosted", CiRecipes.workspace(home, dir.resolve("pr")), github("pull_request", "102"), overrides)
        assertThat(pr.step("Run the suite").exit).`as`(pr.toString()).isZero()
        val gate = pr.step("Gate against main's latest run on this runner")
        gated(gate.exit, pr.toString(), runs.resolve("101"), runs.resolve("102"))
        assertThat(Files.readString(dir.resolve("summary-102.md"))).contains("quarkus/http-primes-limit50000/c16")
        assertThat(runs.resolve("102/gate.xml")).exists()
        assertThat(pr.artifacts.resolve("stackbench-102/results.json")).exists()
        assertThat(runs.resolve("pull-requests.sqlite")).`as`("a pull request's run is no baseline").exists()
    }

    @Test
    fun `the GitHub workflow's both-sides job runs the target branch and the pull request in one job and gates them`(@TempDir dir: Path) {
        wrk()
        val workspace = CiRecipes.workspace(home, dir.resolve("ws"))
        val github = mapOf("GITHUB_EVENT_NAME" to "pull_request", "GITHUB_RUN_ID" to "201", "GITHUB_BASE_REF" to targetBranch(workspace),
            "GITHUB_SHA" to "HEAD", "GITHUB_STEP_SUMMARY" to dir.resolve("summary.md").toString())
        val job = CiRecipes.github(home.resolve("examples/ci/github/benchmarks.yml"), "both-sides", workspace, github, shortRuns)
        assertThat(job.steps.take(4).map { it.exit }).`as`(job.toString()).containsExactly(0, 0, 0, 0)
        gated(job.step("Gate").exit, job.toString(), dir.resolve("ws-temp/baseline"), dir.resolve("ws-temp/current"))
        assertThat(Files.readString(dir.resolve("summary.md"))).contains("quarkus/http-primes-limit50000/c16")
        assertThat(job.artifacts.resolve("stackbench-201/gate.xml")).exists()
    }

    @Test
    fun `the GitLab jobs keep main's run as an artifact, fetch it for a merge request and gate, or run both sides in one job`(@TempDir dir: Path) {
        wrk()
        val recipe = home.resolve("examples/ci/gitlab/.gitlab-ci.yml")
        val main = CiRecipes.gitlab(recipe, "bench-main", CiRecipes.workspace(home, dir.resolve("main")), shortRuns)
        assertThat(main.steps.single().exit).`as`(main.toString()).isZero()
        assertThat(main.artifacts.resolve("baseline/results.json")).exists()

        // GitLab's jobs API, on loopback: the latest artifacts of the default branch's bench-main job, as a zip
        val zip = dir.resolve("artifacts.zip")
        ZipOutputStream(Files.newOutputStream(zip)).use { out ->
            Files.walk(main.artifacts).use { s -> s.filter { Files.isRegularFile(it) }.toList() }.forEach { f ->
                out.putNextEntry(ZipEntry(main.artifacts.relativize(f).toString())); Files.copy(f, out); out.closeEntry()
            }
        }
        val asked = mutableListOf<String>()
        val api = HttpServer.create(InetSocketAddress("127.0.0.1", 0), 8).apply {
            createContext("/api/v4/projects/7/jobs/artifacts/main/download") { ex ->
                asked += "${ex.requestURI.query} ${ex.requestHeaders.getFirst("JOB-TOKEN")}"
                ex.sendResponseHeaders(200, Files.size(zip)); Files.copy(zip, ex.responseBody); ex.close()
            }
            start()
        }
        val mr = try {
            CiRecipes.gitlab(recipe, "bench-merge-request", CiRecipes.workspace(home, dir.resolve("mr")), shortRuns + mapOf(
                "CI_API_V4_URL" to "http://127.0.0.1:${api.address.port}/api/v4", "CI_PROJECT_ID" to "7", "CI_DEFAULT_BRANCH" to "main",
                "CI_JOB_TOKEN" to "job-token", "CI_PIPELINE_SOURCE" to "merge_request_event"))
        } finally { api.stop(0) }
        assertThat(asked).containsExactly("job=bench-main job-token")
        gated(mr.steps.single().exit, mr.toString(), dir.resolve("mr/baseline"), dir.resolve("mr/current"))
        assertThat(mr.artifacts.resolve("gate.xml")).exists()
        assertThat(Files.readString(mr.artifacts.resolve("gate.md"))).contains("quarkus/http-primes-limit50000/c16")

        val ws = CiRecipes.workspace(home, dir.resolve("both"))
        val both = CiRecipes.gitlab(recipe, "bench-both-sides", ws, shortRuns + mapOf(
            "CI_MERGE_REQUEST_TARGET_BRANCH_NAME" to homeBranch(), "CI_COMMIT_SHA" to "HEAD"))
        gated(both.steps.single().exit, both.toString(), ws.resolve("baseline"), ws.resolve("current"))
        assertThat(both.artifacts.resolve("gate.xml")).exists()
        assertThat(ResultsStore.read(ws.resolve("baseline")).cells).hasSize(2)
    }
}
