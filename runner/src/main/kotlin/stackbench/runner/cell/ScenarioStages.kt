package stackbench.runner.cell

import stackbench.runner.plan.LoadShape
import stackbench.runner.plan.ScenarioWarmups
import stackbench.runner.results.SliceRecord
import stackbench.runner.results.WarmupRecord
import stackbench.runner.suite.LoadLength

/**
 * A scenario's warm-up of its own stages (`warmup: [{ duration: 20s, target: 20 }]`): one k6 run of those stages, in
 * the scenario's steps and think time, discarded; recorded as a warm-up ended by its `stages`, its slices the driver's
 * answers second by second (the app's own counter is not needed: the stages, not a watch, end it).
 */
internal object ScenarioStages {
    /** How a warm-up of the scenario's own stages ends: when they do. */
    const val ENDED_BY = "stages"

    /** Runs [shape]'s own warm-up stages and records them; returns the rate over their last seconds (null: none answered). */
    fun run(run: CellRun, shape: LoadShape.Scenario): Double? {
        val (lab, cell) = run.lab to run.cell
        val warm = ScenarioWarmups.shape(shape, cell.load.settings.warmup) ?: return null
        val phase = LoadPhase(lab.hosts.load, lab.isolation)
        val result = phase.run(run.driver.driver, run.driver.executable, run.request(run.dir.resolve("warmup"), LoadLength.Timed(warm.scenario.duration), warm),
            run.placement.driverCpus, "${run.ctx.groupPrefix}-${cell.index}-warmup", cell.load.settings.instances)
        val record = record(result)
        run.record.warmupRecord = record
        run.record.warmupSteps += record.slices.map { it.rate }
        return lastRate(record)
    }

    /**
     * The record of a warm-up of own stages from the driver's [result]: its length, and a slice a second of its answers,
     * its last second left out: k6 counts seconds of the clock, so its last is cut by the stages' end (1 answer where
     * the seconds before had 125), and would read as the app stopping. Pure.
     */
    fun record(result: stackbench.runner.results.LoadResult): WarmupRecord =
        WarmupRecord(result.wallSeconds, ENDED_BY, null, null, result.perSecond.dropLast(1)
            .map { SliceRecord(it.second + 1.0, it.successes.toDouble()) })

    /** The rate over the record's last [WarmupWatch.FLAT_SLICES] slices; null without slices. */
    fun lastRate(record: WarmupRecord): Double? = record.slices.takeLast(WarmupWatch.FLAT_SLICES).takeIf { it.isNotEmpty() }?.map { it.rate }?.average()
}
