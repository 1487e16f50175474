package stackbench.runner.probe

import oshi.hardware.CentralProcessor

/**
 * Steal time: the time a hypervisor ran something else on the physical CPU under one of this machine's virtual
 * CPUs while the guest wanted it, counted by the guest kernel per CPU (`/proc/stat`, read through OSHI). The pace
 * canary ([PaceCanary]) sees a slow host on the runner's CPUs only; steal is counted on every CPU, the app's too,
 * at no cost to the app.
 */
object CpuSteal {
    /** Each CPU's counters by CPU number: OSHI's tick counters, in the order of [CentralProcessor.TickType]. */
    fun read(processor: CentralProcessor): Map<Int, LongArray>? = runCatching {
        val ticks = processor.processorCpuLoadTicks
        val numbers = processor.logicalProcessors.map { it.processorNumber }
        if (numbers.size != ticks.size) null else numbers.zip(ticks.toList()).toMap()
    }.getOrNull()

    /**
     * The share of [cpus]' time between [before] and [after] that the hypervisor took (their steal ticks over all their
     * ticks), or null when no tick of theirs passed or a CPU is missing from either reading. Pure.
     */
    fun share(before: Map<Int, LongArray>, after: Map<Int, LongArray>, cpus: List<Int>): Double? {
        if (cpus.isEmpty()) return null
        val steal = CentralProcessor.TickType.STEAL.index
        var stolen = 0L
        var total = 0L
        for (cpu in cpus) {
            val a = before[cpu] ?: return null
            val b = after[cpu] ?: return null
            stolen += b[steal] - a[steal]
            total += b.indices.sumOf { b[it] - a[it] }
        }
        return if (total <= 0) null else stolen.toDouble() / total
    }
}
