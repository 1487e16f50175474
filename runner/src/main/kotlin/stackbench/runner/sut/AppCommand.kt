package stackbench.runner.sut

import stackbench.runner.catalog.WebModel
import stackbench.runner.database.DatabaseEndpoint
import stackbench.runner.plan.Cell
import java.nio.file.Path

/** Where one started app listens and reports. */
data class AppPorts(val http: Int, val stats: Int)

/**
 * The command line that starts a cell's app: the profile's JVM flags (processors, heap), GC logging into
 * the cell's folder, the suite's system properties and JVM flags, then the Spring properties. A pure
 * function, so plans can print it and tests can pin it.
 */
object AppCommand {
    /** The flag by which the lab gives a JVM the profile's processor count, whatever CPUs it may run on. */
    const val PROCESSOR_COUNT = "-XX:ActiveProcessorCount="

    fun jvmFlags(cell: Cell, machineCpus: Int, gcLog: Path?): List<String> = buildList {
        add("$PROCESSOR_COUNT${cell.profile.activeProcessorCount(machineCpus)}")
        cell.profile.heapBytes()?.let { heap ->
            val mb = heap shr 20
            add("-Xms${mb}m")
            add("-Xmx${mb}m")
        }
        add("-XX:+ExitOnOutOfMemoryError")
        if (gcLog != null) add("$GC_LOG_FLAG$gcLog:utctime,uptime,level,tags")
        cell.app.systemProperties.forEach { (k, v) -> add("-D$k=$v") }
        addAll(cell.app.jvmArgs)
    }

    fun appArgs(cell: Cell, address: String, ports: AppPorts, downstreamUrl: String?, database: DatabaseEndpoint? = null): List<String> = buildList {
        add("--server.port=${ports.http}")
        add("--server.address=$address")
        add("--stackbench.stats.port=${ports.stats}")
        add("--stackbench.stats.address=$address") // where the runner reads it: the host's address, not the app's default loopback
        add("--spring.threads.virtual.enabled=${cell.app.virtualThreads}")
        if (downstreamUrl != null) add("--stackbench.downstream.base-url=$downstreamUrl")
        // before the suite's properties, so that a suite may still override one
        if (database != null) addAll(database.springArgs(reactive = cell.app.stack?.model == WebModel.REACTIVE))
        cell.app.properties.forEach { (k, v) -> add("--$k=$v") }
    }

    fun build(java: Path, jar: Path, cell: Cell, machineCpus: Int, address: String, ports: AppPorts, downstreamUrl: String?, gcLog: Path?, database: DatabaseEndpoint? = null): List<String> =
        build(java, listOf("-jar", jar.toString()), cell, machineCpus, address, ports, downstreamUrl, gcLog, database)

    /** [launch]: how the JVM finds the app, `-jar app.jar` or a fast start's options and jar (stackbench.runner.sut.FastStart). */
    fun build(java: Path, launch: List<String>, cell: Cell, machineCpus: Int, address: String, ports: AppPorts, downstreamUrl: String?, gcLog: Path?,
              database: DatabaseEndpoint? = null): List<String> =
        listOf(java.toString()) + jvmFlags(cell, machineCpus, gcLog) + launch + appArgs(cell, address, ports, downstreamUrl, database)

    /** Marks a process as started by the run writing to [runDir], so `ps` (and the tests) can tell whose it is. */
    fun ownerFlag(runDir: Path) = "-Dstackbench.run=$runDir"

    /** How an app of the run writing to [runDir] shows in `ps`: the start of its GC log flag (the log is in the run's folder). */
    fun gcLogMarker(runDir: Path) = "$GC_LOG_FLAG$runDir/"

    private const val GC_LOG_FLAG = "-Xlog:gc:file="
}
