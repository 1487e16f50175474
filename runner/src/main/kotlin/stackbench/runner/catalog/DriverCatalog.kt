package stackbench.runner.catalog

import java.util.Properties

/** Every load generator the lab drives. A new driver is one entry here (listed in [all]) and its adapter, `load/<Id>Driver.kt`. */
object DriverCatalog {
    /** The pinned releases, shared with `.ci/run` (resources/catalog/drivers.properties). */
    private val pinned: Properties = Properties().apply {
        DriverCatalog::class.java.getResourceAsStream(VERSIONS_RESOURCE)!!.use { load(it) }
    }

    /** The oha release the parsers are tested against. */
    val OHA_VERSION: String = pinned.getProperty("oha.version")!!

    val OHA = DriverSpec(
        id = "oha", version = OHA_VERSION, install = Install.Cargo("oha", OHA_VERSION, minutes = 6),
        localPath = ".tools/bin/oha", versionFlag = "--version",
        models = setOf(LoadModelKind.CLOSED, LoadModelKind.OPEN, LoadModelKind.CAPACITY), countedLength = true,
        neededBy = "every run: the default load generator", essential = true,
        traffic = TrafficSupport(why = mapOf(
            TrafficSupport.FEED to "oha sends one request template for a whole run (its URL, -m, -H and -d fixed): it cannot draw values per request; use driver: k6 or wrk",
            TrafficSupport.MIX to "oha sends one request template for a whole run (its URL, -m, -H and -d fixed): it cannot mix requests; use driver: k6 or wrk",
        )),
    )

    /** `wrk -v` prints its version, then its usage for want of a URL, and exits 1. */
    val WRK = DriverSpec(
        id = "wrk", version = null, install = Install.Apt("wrk"),
        localPath = null, versionFlag = "-v",
        models = setOf(LoadModelKind.CLOSED), countedLength = false, essential = false,
        // a mix runs one thread a connection: wrk's Lua hooks are not told which connection a request or an answer is on
        traffic = TrafficSupport(picks = setOf("sequential", "random"), mixes = true, mixConnections = 64, why = mapOf(
            "per-user" to "wrk's request() hook is not told which connection sends: it cannot keep a value per connection; use driver: k6, or pick: sequential or random",
            TrafficSupport.MIX_CONNECTIONS to "wrk names each answer of a mix by running one thread a connection (its hooks cannot tell connections apart)",
        )),
    )

    /** The k6 release the script generator and the CSV reader are tested against. */
    val K6_VERSION: String = pinned.getProperty("k6.version")!!

    /**
     * k6: the scenario engine (user ramps, think time, mixes, arrival-rate executors) and the one driver that
     * splits a load over several instances (execution segments). `k6 version` prints its version.
     */
    val K6 = DriverSpec(
        id = "k6", version = K6_VERSION, install = Install.Go("go.k6.io/k6", K6_VERSION, minutes = 3),
        localPath = ".tools/bin/k6", versionFlag = "version",
        models = setOf(LoadModelKind.CLOSED, LoadModelKind.OPEN, LoadModelKind.SCENARIO), countedLength = true,
        splits = true, neededBy = "suites with `driver: k6` (scenarios, split runs) and their tests", essential = false,
        traffic = TrafficSupport(picks = setOf("sequential", "random", "per-user"), mixes = true),
    )

    val all: List<DriverSpec> = listOf(OHA, WRK, K6)

    fun byId(id: String): DriverSpec? = all.firstOrNull { it.id == id }

    const val VERSIONS_RESOURCE = "/catalog/drivers.properties"
}
