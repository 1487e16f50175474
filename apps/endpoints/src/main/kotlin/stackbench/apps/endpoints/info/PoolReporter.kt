package stackbench.apps.endpoints.info

import stackbench.contract.Pool

/** A bean that owns pools which bound concurrency, and says how big they are for /info. */
fun interface PoolReporter {
    fun pools(): List<Pool>
}

/** The values of [Pool.source]. */
object Source {
    const val RUNTIME = "runtime"
    const val PROPERTY = "property"
    const val DEFAULT = "default"

    fun of(setByProperty: Boolean): String = if (setByProperty) PROPERTY else DEFAULT
}

/** The values of [Pool.kind]. */
object Kind {
    const val THREADS = "threads"
    const val VIRTUAL_THREADS = "virtual threads"
    const val EVENT_LOOPS = "event loops"
    const val CONNECTIONS = "connections"
    const val PERMITS = "permits"
}
