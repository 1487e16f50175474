package stackbench.runner.suite

import java.time.Duration

/**
 * A scenario load (`model: scenario`, k6 only): users (or arrivals) ramped through stages, each iteration one
 * pass over its [steps] in order (or, for a [mixed] scenario, one step picked by weight), then [think] time.
 * The steps name the suite's own endpoints (`POST /todo`); the plan resolves them to endpoint calls.
 */
data class Scenario(
    /** Names the cells: `app/scenario-<name>/r1`. */
    val name: String,
    val profile: ScenarioProfile,
    val steps: List<ScenarioStep>,
    /** True for `mix:`: each iteration sends one step, picked by weight; false for `steps:`, all in order. */
    val mixed: Boolean,
    /** The pause after each iteration, or null for none. */
    val think: Think?,
    /** What runs before the measured stages and is not counted; null: none, the ramp measured from a cold app. */
    val warmup: ScenarioWarmup? = null,
) {
    /** The whole scenario: its stages end to end. */
    val duration: Duration get() = profile.stages.fold(Duration.ZERO) { acc, s -> acc + s.duration }

    /** This scenario with every stage's duration multiplied by [scale] (`--scale`), each at least one second. */
    fun scaled(scale: Double): Scenario = if (scale == 1.0) this else copy(profile = profile.withStages(profile.stages.map { scaled(it, scale) }),
        warmup = warmup?.scaled(scale))

    companion object {
        internal fun scaled(d: Duration, scale: Double): Duration = Duration.ofMillis((d.toMillis() * scale).toLong()).coerceAtLeast(Duration.ofSeconds(1))

        internal fun scaled(s: Stage, scale: Double): Stage = s.copy(duration = scaled(s.duration, scale))
    }
}

/**
 * A scenario's warm-up (`load.scenario.warmup`): load run before the measured stages, in the same k6 scenario (its
 * steps or mix, its think time), whose figures are not counted. [min] and [max] bound how long it runs.
 */
sealed interface ScenarioWarmup {
    val min: Duration
    val max: Duration

    fun scaled(scale: Double): ScenarioWarmup

    /** `warmup: [{ duration: 20s, target: 20 }]`: its own stages, run whole and discarded. */
    data class Stages(val stages: List<Stage>) : ScenarioWarmup {
        override val min: Duration get() = stages.fold(Duration.ZERO) { acc, s -> acc + s.duration }
        override val max: Duration get() = min
        override fun scaled(scale: Double) = if (scale == 1.0) this else copy(stages = stages.map { Scenario.scaled(it, scale) })
    }

    /**
     * `warmup: { min: 10s, max: 2m }`: the lab's steady-state watch, as a closed or open cell's warm-up: the first measured
     * stage's target held, at least [min], until the app is steady, at most [max].
     */
    data class Steady(override val min: Duration, override val max: Duration) : ScenarioWarmup {
        override fun scaled(scale: Double) = if (scale == 1.0) this else copy(min = Scenario.scaled(min, scale), max = Scenario.scaled(max, scale))
    }
}

/** One request of a scenario, as the suite wrote it (`POST /todo`), where it wrote it, and its weight in a mix. */
data class ScenarioStep(val method: String, val path: String, val weight: Int, val line: Int, val column: Int, val label: String? = null) {
    /** `POST /todo`: how suites and messages name it. */
    val request: String get() = "$method $path"

    /** How the results name its figures: the suite's `name:` of a mix's request, else its [request] line. */
    val name: String get() = label ?: request
}

/** One stage of a ramp: move linearly to [target] (users, or iterations per second) over [duration]. */
data class Stage(val duration: Duration, val target: Int)

/** How a scenario's load grows: a closed ramp of users or an open ramp of arrivals. */
sealed interface ScenarioProfile {
    val stages: List<Stage>

    fun withStages(stages: List<Stage>): ScenarioProfile

    /** `users:`, k6's ramping-vus: each user loops over the iteration with no pause but the think time. */
    data class Users(override val stages: List<Stage>) : ScenarioProfile {
        override fun withStages(stages: List<Stage>) = copy(stages = stages)
    }

    /**
     * `arrivals:`, k6's ramping-arrival-rate: iterations started per second whatever the answers do, by at most
     * [maxUsers] users at once; an iteration due when all are busy is dropped (counted, never hidden).
     */
    data class Arrivals(override val stages: List<Stage>, val maxUsers: Int) : ScenarioProfile {
        override fun withStages(stages: List<Stage>) = copy(stages = stages)
    }
}

/** A uniform pause in [min]..[max] (equal for a fixed pause). */
data class Think(val min: Duration, val max: Duration)
