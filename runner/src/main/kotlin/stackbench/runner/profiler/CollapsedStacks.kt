package stackbench.runner.profiler

/**
 * A profile as collapsed stacks: one line per distinct stack, its frames from the root down separated by `;`, a space
 * and its sample count (the format of async-profiler's converter and of Brendan Gregg's flame-graph tools). Pure.
 *
 * A frame's name keeps its class and method; the converter's suffix for how the frame ran (`_[j]` compiled, `_[i]`
 * inlined, `_[0]` interpreted, `_[k]` kernel) is dropped when frames are counted, so one method is one row however
 * the JIT treated it.
 */
class CollapsedStacks(val counts: Map<String, Long>) {
    val total: Long = counts.values.sum()

    /** The frames where samples ended (self time), most first: what the CPU was running. */
    fun topSelf(n: Int): List<FrameShare> = shares(counts.entries.groupBy({ frameName(it.key.substringAfterLast(';')) }, { it.value }), n)

    /** The frames on any sampled stack (total time, a frame counted once a stack), most first: where the time was spent below. */
    fun topTotal(n: Int): List<FrameShare> {
        val byFrame = HashMap<String, Long>()
        for ((stack, count) in counts) {
            for (frame in stack.split(';').map(::frameName).toSet()) byFrame.merge(frame, count, Long::plus)
        }
        return shares(byFrame.mapValues { listOf(it.value) }, n)
    }

    /** Each stack's share of all samples, frame suffixes dropped (stacks that differ only in them merged). */
    fun stackShares(): Map<String, Double> {
        if (total == 0L) return emptyMap()
        val merged = HashMap<String, Long>()
        for ((stack, count) in counts) merged.merge(stack.split(';').joinToString(";", transform = ::frameName), count, Long::plus)
        return merged.mapValues { it.value.toDouble() / total }
    }

    private fun shares(byFrame: Map<String, List<Long>>, n: Int): List<FrameShare> {
        if (total == 0L) return emptyList()
        return byFrame.map { (frame, counts) -> counts.sum().let { FrameShare(frame, it, it.toDouble() / total) } }
            .sortedWith(compareByDescending<FrameShare> { it.samples }.thenBy { it.frame }).take(n)
    }

    companion object {
        private val SUFFIX = Regex("""_\[[a-z0-9]+]$""")

        fun frameName(raw: String): String = raw.replace(SUFFIX, "").replace('/', '.')

        /** Parses [text] (from [source], named in errors with the line). Blank lines are skipped. */
        fun parse(text: String, source: String): CollapsedStacks {
            val counts = LinkedHashMap<String, Long>()
            text.lineSequence().forEachIndexed { i, line ->
                if (line.isBlank()) return@forEachIndexed
                val space = line.lastIndexOf(' ')
                val count = if (space > 0) line.substring(space + 1).toLongOrNull() else null
                require(count != null && count >= 0) { "$source:${i + 1}: not a collapsed stack (frames;separated;by;semicolons COUNT): '${line.take(80)}'" }
                counts.merge(line.substring(0, space), count, Long::plus)
            }
            return CollapsedStacks(counts)
        }
    }
}

/** A frame's samples and its share of the profile's. */
data class FrameShare(val frame: String, val samples: Long, val share: Double)
