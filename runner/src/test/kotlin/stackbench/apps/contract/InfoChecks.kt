package stackbench.apps.contract

import org.assertj.core.api.SoftAssertions
import stackbench.contract.AppInfo
import stackbench.contract.Paths
import stackbench.contract.WarmupTruth

/** What `GET /info` must say about a stack. */
object InfoChecks {
    private val LIBRARY_POOLS = listOf("kotlinx.dispatchers-default", "kotlinx.dispatchers-io", "reactor.parallel", "reactor.bounded-elastic")
    private val OUR_POOLS = listOf("stackbench.cpu-pool", "stackbench.semaphore", "stackbench.io-pool")
    private val DOWNSTREAM_POOLS = listOf(
        "downstream.java-httpclient.connections", "downstream.apache-async.connections",
        "downstream.webclient.connections", "downstream.rest-client.connections",
    )

    fun check(soft: SoftAssertions, http: Http, stack: Stack, virtualThreads: Boolean, warmupTruth: WarmupTruth? = null): AppInfo? {
        val answer = http.get(Paths.INFO)
        soft.assertThat(answer.status).`as`("/info: %s", answer).isEqualTo(200)
        if (answer.status != 200) return null
        val info = answer.json<AppInfo>()
        soft.assertThat(info.stack).isEqualTo(stack.id)
        soft.assertThat(info.model).isEqualTo(stack.model)
        soft.assertThat(info.springBoot).isEqualTo(stack.boot)
        soft.assertThat(info.springFramework).startsWith(stack.framework)
        soft.assertThat(info.server).isEqualTo(stack.server)
        soft.assertThat(info.serverVersion).startsWith(stack.serverVersion)
        soft.assertThat(info.jdk).startsWith(System.getProperty("java.version"))
        soft.assertThat(info.garbageCollectors).isNotEmpty()
        soft.assertThat(info.heapMaxBytes).isEqualTo(256L * 1024 * 1024)
        soft.assertThat(info.availableProcessors).isEqualTo(Runtime.getRuntime().availableProcessors())
        soft.assertThat(info.virtualThreads).isEqualTo(virtualThreads)
        soft.assertThat(info.requestExecution).`as`("requestExecution").contains(expectedExecution(stack, virtualThreads))
        soft.assertThat(info.warmupTruth).`as`("the warm-up truth mode is off unless asked for, and as it started when asked").isEqualTo(warmupTruth)

        val pools = info.pools.associateBy { it.name }
        soft.assertThat(pools.keys).`as`("pool names").containsAll(listOf(stack.requestPool) + LIBRARY_POOLS + OUR_POOLS + DOWNSTREAM_POOLS)
        soft.assertThat(pools[stack.requestPool]?.source).`as`("request pool read live").isEqualTo("runtime")
        soft.assertThat(pools["stackbench.io-pool"]?.size).`as`("the cached pool is unbounded").isNull()
        soft.assertThat(pools["downstream.java-httpclient.connections"]?.size).`as`("java.net.http: no connection limit").isNull()
        for (name in DOWNSTREAM_POOLS.drop(1)) {
            soft.assertThat(pools[name]?.size).`as`("%s allows 2,000 concurrent requests", name).isGreaterThanOrEqualTo(2000)
        }
        soft.assertThat(info.pools.map { it.source }).`as`("sources").allMatch { it in setOf("runtime", "property", "default") }
        return info
    }

    /** The pool named [name] has [size], and says where it comes from. */
    fun pool(soft: SoftAssertions, info: AppInfo?, name: String, size: Int?, source: String) {
        val pool = info?.pools?.firstOrNull { it.name == name }
        soft.assertThat(pool).`as`("pool %s", name).isNotNull()
        soft.assertThat(pool?.size).`as`("size of %s", name).isEqualTo(size)
        soft.assertThat(pool?.source).`as`("source of %s", name).isEqualTo(source)
    }

    private fun expectedExecution(stack: Stack, virtualThreads: Boolean) = when {
        stack.servlet && virtualThreads -> "virtual threads"
        stack.servlet -> "platform threads"
        virtualThreads -> "virtual threads"
        else -> "event loop"
    }
}
