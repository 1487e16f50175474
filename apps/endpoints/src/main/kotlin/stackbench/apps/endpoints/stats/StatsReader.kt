package stackbench.apps.endpoints.stats

import org.springframework.stereotype.Component
import stackbench.contract.Stats

/** Reads what `GET /stats` answers: the completed exchanges, the JVM's signals and each endpoint's work. */
@Component
class StatsReader(private val completed: CompletedExchanges, private val work: WorkCounters) {

    fun read(): Stats = Stats(
        completed = completed.count(),
        epochMillis = System.currentTimeMillis(),
        processCpuNanos = JvmSignals.processCpuNanos(),
        compilationMillis = JvmSignals.compilationMillis(),
        gcMillis = JvmSignals.gcMillis(),
        gcCount = JvmSignals.gcCount(),
        loadedClasses = JvmSignals.loadedClasses(),
        allocatedBytes = JvmSignals.allocatedBytes(),
        work = work.snapshot(),
    )
}
