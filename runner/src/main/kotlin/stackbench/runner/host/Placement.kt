package stackbench.runner.host

import stackbench.runner.suite.ResourceProfile

/**
 * Which CPUs each role of a cell runs on. With a CPU set the app has its cores and everything else (load
 * generator, downstream service, the runner) the rest, so they never fight. With a quota alone every role
 * shares the machine, as the published comparisons' containers did, and results say so.
 */
data class Placement(val appCpus: List<Int>, val driverCpus: List<Int>, val downstreamCpus: List<Int>) {
    val shared: Boolean get() = appCpus.isEmpty()

    /** How many CPUs the driver may use: its own set, or the whole machine when shared. */
    fun driverCpuCount(machineCpus: Int): Int = if (driverCpus.isEmpty()) machineCpus else driverCpus.size

    companion object {
        fun of(profile: ResourceProfile, machineCpus: Int): Placement {
            if (profile.cpuset.isEmpty()) return Placement(emptyList(), emptyList(), emptyList())
            val rest = (0 until machineCpus).filter { it !in profile.cpuset }
            return Placement(profile.cpuset, rest, rest)
        }
    }
}
