package stackbench.apps.endpoints.info

import org.springframework.boot.SpringBootVersion
import org.springframework.core.SpringVersion
import org.springframework.core.env.Environment
import org.springframework.stereotype.Component
import stackbench.apps.endpoints.io.WarmupTruthClock
import stackbench.contract.AppInfo
import java.lang.management.ManagementFactory

/** Puts together what `GET /info` answers, reading the live server and pools at each call. */
@Component
class AppInfoFactory(
    private val server: ServerIntrospection,
    private val reporters: List<PoolReporter>,
    private val environment: Environment,
    private val warmupTruth: WarmupTruthClock,
) {
    fun current(): AppInfo {
        val virtualThreads = virtualThreads(environment)
        val described = server.describe(virtualThreads)
        return AppInfo(
            stack = server.stack,
            model = server.model,
            springBoot = SpringBootVersion.getVersion() ?: "unknown",
            springFramework = SpringVersion.getVersion() ?: "unknown",
            server = described.server,
            serverVersion = described.version,
            jdk = "${System.getProperty("java.version")} (${System.getProperty("java.vendor")})",
            jvm = "${System.getProperty("java.vm.name")} ${System.getProperty("java.vm.version")}",
            garbageCollectors = ManagementFactory.getGarbageCollectorMXBeans().map { it.name },
            heapMaxBytes = Runtime.getRuntime().maxMemory(),
            availableProcessors = Runtime.getRuntime().availableProcessors(),
            virtualThreads = virtualThreads,
            requestExecution = described.requestExecution,
            pools = described.pools + LibraryPools.all() + reporters.flatMap { it.pools() },
            warmupTruth = warmupTruth.info(),
        )
    }

    companion object {
        const val VIRTUAL_THREADS = "spring.threads.virtual.enabled"

        /**
         * Spring Boot's own rule (its `Threading.VIRTUAL`, whose package differs between Boot 3.5 and 4.1):
         * the property is true and the JVM is 21 or newer.
         */
        fun virtualThreads(environment: Environment): Boolean =
            environment.getProperty(VIRTUAL_THREADS, Boolean::class.java, false) && Runtime.version().feature() >= 21
    }
}
