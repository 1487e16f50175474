package stackbench.apps.endpoints.info

import org.slf4j.LoggerFactory
import org.springframework.boot.context.event.ApplicationReadyEvent
import org.springframework.context.ApplicationListener
import org.springframework.stereotype.Component
import stackbench.contract.AppInfo
import stackbench.contract.Pool

/** Logs one line with the effective concurrency settings once the app is ready (after Spring's "Started" line). */
@Component
class StartupReport(private val info: AppInfoFactory) : ApplicationListener<ApplicationReadyEvent> {

    override fun onApplicationEvent(event: ApplicationReadyEvent) {
        log.info(line(info.current()))
    }

    companion object {
        private val log = LoggerFactory.getLogger(StartupReport::class.java)

        fun line(info: AppInfo): String = buildString {
            append("stackbench: stack=").append(info.stack)
            append(" model=").append(info.model)
            append(" boot=").append(info.springBoot)
            append(" framework=").append(info.springFramework)
            append(" server=\"").append(info.server).append('/').append(info.serverVersion).append('"')
            append(" jdk=\"").append(info.jdk).append('"')
            append(" gc=").append(info.garbageCollectors.joinToString(",", "[", "]"))
            append(" heapMax=").append(info.heapMaxBytes / (1024 * 1024)).append("m")
            append(" processors=").append(info.availableProcessors)
            append(" virtualThreads=").append(info.virtualThreads)
            append(" requestExecution=\"").append(info.requestExecution).append('"')
            append(" pools=").append(info.pools.joinToString(" ", "[", "]", transform = ::pool))
        }

        private fun pool(pool: Pool) = "${pool.name}=${pool.size ?: "unbounded"}(${pool.source})"
    }
}
