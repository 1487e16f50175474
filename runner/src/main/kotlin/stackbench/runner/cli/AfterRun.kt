package stackbench.runner.cli

import stackbench.runner.decide.ProfileOverhead
import stackbench.runner.profiler.FlameConverter
import stackbench.runner.profiler.ProfileComparisons
import stackbench.runner.results.ResultsStore
import stackbench.runner.results.RunResult
import java.nio.file.Files
import java.nio.file.Path

/**
 * One analysis of a run once its cells are measured, into its own section of results.json ([section]). The decisions
 * (`decisions`) are made by the suite loop after every cell and again by `reclassify`; these come after them.
 */
interface AfterRunStep {
    /** What it reads, for a message. */
    val name: String

    /** Its section of results.json. */
    val section: String

    fun applies(result: RunResult): Boolean

    /** [result] with this step's section filled in; [dir]: the run's folder, where its profiles are. */
    fun apply(result: RunResult, dir: Path): RunResult
}

/**
 * The analyses after a run, in order, applied the same way by `run` and `reclassify`; the caller writes the record
 * once after them. A step that fails leaves the record as it was and says why: the measured run is never lost to it.
 */
object AfterRun {
    /** Every step; [java] (the JDK whose tools convert profiles) null: the steps that need none. */
    fun steps(java: Path?): List<AfterRunStep> = listOfNotNull(java?.let(::ProfileComparisonsStep), ProfileOverheadStep)

    fun apply(result: RunResult, dir: Path, steps: List<AfterRunStep>, say: (String) -> Unit): RunResult =
        steps.fold(result) { r, step ->
            if (!step.applies(r)) r
            else runCatching { step.apply(r, dir) }.getOrElse { say("${step.name} (${step.section}) was not read: ${it.message}"); r }
        }
}

/** Where the time went in each comparison whose sides were profiled (`profileComparisons`). */
class ProfileComparisonsStep(private val java: Path) : AfterRunStep {
    override val name = "where the time went in each profiled comparison"
    override val section = "profileComparisons"

    override fun applies(result: RunResult) = profiled(result) && result.decisions.isNotEmpty()

    override fun apply(result: RunResult, dir: Path) = result.copy(profileComparisons = ProfileComparisons(FlameConverter(java)).of(result, dir))
}

/**
 * What the run's profiler modes cost (`profileOverhead`): from its own profiled windows against unprofiled ones
 * (alternating, or compared), else, when it has profiles, from the lab's published measurement.
 */
object ProfileOverheadStep : AfterRunStep {
    /** The lab's published measurement of what each profiler mode costs (suites/profile-overhead.yaml). */
    const val PUBLISHED = "docs/runs/profile-overhead/results.json.gz"

    override val name = "what the profiler modes cost"
    override val section = "profileOverhead"

    override fun applies(result: RunResult) = profiled(result)

    override fun apply(result: RunResult, dir: Path): RunResult {
        val published = Home.path.resolve(PUBLISHED)
        val records = ProfileOverhead.of(result).ifEmpty {
            if (Files.exists(published)) ProfileOverhead.of(ResultsStore.read(published)) else emptyList()
        }
        return if (records.isEmpty()) result else result.copy(profileOverhead = records)
    }
}

private fun profiled(result: RunResult) = result.cells.any { it.probes.containsKey(ProfileComparisons.PROFILE) }
