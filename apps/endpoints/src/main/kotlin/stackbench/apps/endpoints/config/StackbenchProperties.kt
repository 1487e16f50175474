package stackbench.apps.endpoints.config

import org.springframework.boot.context.properties.ConfigurationProperties

/**
 * The lab's own properties (`stackbench.*`). A size left unset is null here and takes its default
 * (available processors), so that /info can say whether a figure was set or defaulted.
 */
@ConfigurationProperties("stackbench")
class StackbenchProperties(
    val cpuPool: CpuPool = CpuPool(),
    val semaphore: Semaphore = Semaphore(),
    val downstream: Downstream = Downstream(),
    val stats: Stats = Stats(),
    val warmupTruth: WarmupTruth = WarmupTruth(),
    val pinningTruth: PinningTruth = PinningTruth(),
    val db: Db = Db(),
) {
    /**
     * The known-truth pinning mode (off unless [enabled]): `/io/blocking` sleeps inside a class initializer, which pins a
     * virtual thread to its carrier on every JDK (see `stackbench.apps.endpoints.io.PinningTruth`).
     */
    class PinningTruth(val enabled: Boolean = false)

    /** The `/db` connection pools: HikariCP's maximumPoolSize and r2dbc-pool's maxSize (each exists only with its URL). */
    class Db(val pool: Int = stackbench.contract.Database.DEFAULT_POOL) {
        init {
            require(pool >= 1) { "stackbench.db.pool must be at least 1, was $pool" }
        }
    }

    /** The fixed pool of the `completable-future` CPU strategy. */
    class CpuPool(val size: Int? = null) {
        init {
            require(size == null || size >= 1) { "stackbench.cpu-pool.size must be at least 1, was $size" }
        }
    }

    /** The permits of the `semaphore` CPU strategy. */
    class Semaphore(val permits: Int? = null) {
        init {
            require(permits == null || permits >= 1) { "stackbench.semaphore.permits must be at least 1, was $permits" }
        }
    }

    /** Where the downstream service is, and how many connections each client may open to it. */
    class Downstream(val baseUrl: String = "http://127.0.0.1:8081", val maxConnections: Int = 2000) {
        init {
            require(maxConnections >= 1) { "stackbench.downstream.max-connections must be at least 1, was $maxConnections" }
            require(baseUrl.startsWith("http://") || baseUrl.startsWith("https://")) {
                "stackbench.downstream.base-url must be an http(s) URL, was '$baseUrl'"
            }
        }
    }

    /** The stats side channel: off when [port] is 0. */
    class Stats(val port: Int = 0, val address: String = "127.0.0.1") {
        init {
            require(port in 0..65535) { "stackbench.stats.port must be 0 (off) or a port, was $port" }
        }
    }

    /**
     * The known-truth warm-up mode (off when [seconds] is 0): the I/O endpoints' requests wait [extraMs] more at first,
     * falling linearly to nothing [seconds] after the first of them (see `stackbench.contract.WarmupTruth`).
     */
    class WarmupTruth(val seconds: Long = 0, val extraMs: Long = 0, val skipRequests: Long = 0) {
        init {
            require(skipRequests in 0..MAX_SECONDS) { "stackbench.warmup-truth.skip-requests must be 0 to $MAX_SECONDS, was $skipRequests" }
            require(seconds in 0..MAX_SECONDS) { "stackbench.warmup-truth.seconds must be 0 (off) to $MAX_SECONDS, was $seconds" }
            require(extraMs in 0..MAX_EXTRA_MS) { "stackbench.warmup-truth.extra-ms must be 0 to $MAX_EXTRA_MS, was $extraMs" }
            require(extraMs == 0L || seconds > 0) { "stackbench.warmup-truth.extra-ms needs stackbench.warmup-truth.seconds > 0" }
        }

        companion object {
            const val MAX_SECONDS = 86_400L
            const val MAX_EXTRA_MS = 60_000L
        }
    }
}
