package stackbench.apps.endpoints.stats

import org.springframework.stereotype.Component
import stackbench.contract.Paths
import stackbench.contract.Stats
import java.util.concurrent.atomic.LongAdder

/** The count of completed HTTP exchanges that the stats side channel serves. */
@Component
class CompletedExchanges {
    private val completed = LongAdder()

    fun increment() = completed.increment()

    fun count(): Long = completed.sum()

    companion object {
        /** The runner's own probes are not load: /info, /actuator/..., /stats are not counted. */
        fun counts(path: String): Boolean =
            !(path == Paths.INFO || path == Stats.PATH || path == ACTUATOR || path.startsWith("$ACTUATOR/"))

        private const val ACTUATOR = "/actuator"
    }
}
