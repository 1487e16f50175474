package stackbench.runner.profiler

import stackbench.runner.suite.ProfilerMode

/** A window's profile in short (the `profile` probe's details, probes/ProfilerProbe): what recorded it, how many samples, and its [top] frames. */
data class ProfileSummary(
    val mode: String,
    val engine: String,
    val event: String,
    val samples: Long,
    /** The app's CPU ms per answer over the window, which a frame's share multiplies into its own; null when not a CPU profile or unknown. */
    val cpuMsPerRequest: Double?,
    val topSelf: List<Frame>,
    val topTotal: List<Frame>,
) {
    data class Frame(val frame: String, val samples: Long, val share: Double, val msPerRequest: Double?)

    companion object {
        fun of(mode: ProfilerMode, r: WindowProfiler.Recording, stacks: CollapsedStacks, cpuMsPerRequest: Double?, top: Int): ProfileSummary {
            fun frames(list: List<FrameShare>) = list.map { Frame(it.frame, it.samples, it.share, cpuMsPerRequest?.let { c -> c * it.share }) }
            return ProfileSummary(mode.id, r.engine.id, r.event, stacks.total, cpuMsPerRequest,
                frames(stacks.topSelf(top)), frames(stacks.topTotal(top)))
        }
    }
}
