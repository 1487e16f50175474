package stackbench.runner.cell

import stackbench.runner.catalog.DriverSpec
import stackbench.runner.host.RoleHosts
import stackbench.runner.host.ProcessRegistry
import stackbench.runner.isolation.Isolation
import stackbench.runner.load.LoadDriver
import stackbench.runner.sut.Http
import tools.jackson.databind.ObjectMapper
import java.nio.file.Path

/** A load driver ready to run: the adapter, its executable, its version. */
data class ReadyDriver(val driver: LoadDriver, val executable: Path, val version: String)

/** What every stage of a run shares: where things are, how processes start and are confined. */
class Lab(
    val home: Path,
    val java: Path,
    val machineCpus: Int,
    val isolation: Isolation,
    /** The host of each role (the app's, the downstream service's, the load's). */
    val hosts: RoleHosts,
    val registry: ProcessRegistry,
    val http: Http,
    val json: ObjectMapper,
    /** Finds a driver, or throws a message naming its install command. */
    val driver: (DriverSpec) -> ReadyDriver,
    /**
     * `run --fast-start`: the built-in apps start from their extracted jars with a class-data archive
     * (stackbench.runner.sut.FastStart), for the lab's own tests; their start-ups are marked as such in the results.
     */
    val fastStart: Boolean = false,
    /** The run's database, when the suite has one: the apps are given it. */
    val database: stackbench.runner.database.DatabaseEndpoint? = null,
) {
    /** This lab with its roles on [hosts]. */
    fun withHosts(hosts: RoleHosts) = Lab(home, java, machineCpus, isolation, hosts, registry, http, json, driver, fastStart, database)

    /** This lab with the run's [database]. */
    fun withDatabase(database: stackbench.runner.database.DatabaseEndpoint?) = Lab(home, java, machineCpus, isolation, hosts, registry, http, json, driver, fastStart, database)
}
