package stackbench.runner.plan

import stackbench.runner.suite.Scenario
import stackbench.runner.suite.ScenarioWarmup
import stackbench.runner.suite.Stage
import stackbench.runner.yaml.Units
import java.time.Duration

/**
 * The load a scenario's warm-up runs ([ScenarioWarmup]), as a scenario the k6 driver runs like any other: its own
 * stages, or the first measured stage's target held for a given length (the steady-state watch's load, run whole or
 * slice by slice). The warm-up's scenario has no warm-up of its own. Pure.
 */
object ScenarioWarmups {
    /** How long the held load takes to reach its target at the start of each run: at most a second, a quarter of a short slice. */
    private val RAMP: Duration = Duration.ofSeconds(1)

    /** The users (or iterations per second) a steady-state warm-up holds: the first measured stage's target, or the highest when that is 0. */
    fun heldTarget(scenario: Scenario): Int {
        val stages = scenario.profile.stages
        return stages.first().target.takeIf { it > 0 } ?: stages.maxOf { it.target }
    }

    /**
     * [shape]'s warm-up as a scenario load of about [length]: its own stages ([ScenarioWarmup.Stages], whatever
     * [length]), or its [heldTarget] reached in a short ramp and held to [length]; null when it has no warm-up.
     */
    fun shape(shape: LoadShape.Scenario, length: Duration): LoadShape.Scenario? {
        val s = shape.scenario
        val stages = when (val w = s.warmup) {
            null -> return null
            is ScenarioWarmup.Stages -> w.stages
            is ScenarioWarmup.Steady -> held(heldTarget(s), length)
        }
        return shape.copy(scenario = s.copy(profile = s.profile.withStages(stages), warmup = null))
    }

    /** [target] reached in a ramp of at most a second (a quarter of a shorter [length]) and held to [length]. */
    fun held(target: Int, length: Duration): List<Stage> {
        val ramp = minOf(RAMP, length.dividedBy(4)).coerceAtLeast(Duration.ofMillis(1))
        val hold = (length - ramp).coerceAtLeast(Duration.ofMillis(1))
        return listOf(Stage(ramp, target), Stage(hold, target))
    }

    /** The warm-up as `plan` and the record show it. */
    fun describe(scenario: Scenario): String = when (val w = scenario.warmup) {
        null -> "no warm-up: the ramp is measured from a cold app"
        is ScenarioWarmup.Stages -> "warm-up " + w.stages.joinToString(" → ") { "${it.target} in ${Units.formatDuration(it.duration)}" } +
            " (${Units.formatDuration(w.min)}, not measured)"
        is ScenarioWarmup.Steady -> "warm-up at ${heldTarget(scenario)} until steady (the lab's watch), " +
            "${Units.formatDuration(w.min)} to ${Units.formatDuration(w.max)}, not measured"
    }
}
