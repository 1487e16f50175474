package stackbench.contract

/**
 * What `GET /info` answers: enough to say exactly what ran. Every app fills every field it can;
 * a pool the app does not have is absent from [pools].
 */
data class AppInfo(
    /** The stack id, e.g. `tomcat`, `undertow`, `webflux`. */
    val stack: String,
    /** `servlet` or `reactive`. */
    val model: String,
    val springBoot: String,
    val springFramework: String,
    val server: String,
    val serverVersion: String,
    val jdk: String,
    val jvm: String,
    val garbageCollectors: List<String>,
    val heapMaxBytes: Long,
    val availableProcessors: Int,
    val virtualThreads: Boolean,
    /** Where blocking request work runs: `platform threads`, `virtual threads`, `event loop`... */
    val requestExecution: String,
    val pools: List<Pool>,
)

/**
 * One pool that bounds concurrency. [size] null means unbounded. [source] says where the figure comes
 * from: `runtime` (read from the live object), `property` (set by a property), `default` (the library's rule).
 */
data class Pool(val name: String, val size: Int?, val kind: String, val source: String, val detail: String = "")
