package stackbench.runner.probes

import stackbench.runner.database.RunningDatabase
import stackbench.runner.probe.WindowProbe
import stackbench.runner.suite.Suite
import tools.jackson.databind.ObjectMapper
import java.nio.file.Path

/** What the run gives each kind of probe to make its probes from: the suite, the lab's folders and tools, its database. */
class ProbeContext(
    val suite: Suite,
    /** The lab's folder (its `.tools` among others). */
    val home: Path,
    /** The `java` that runs the apps (its `jcmd` beside it). */
    val java: Path,
    val json: ObjectMapper,
    /** The run's PostgreSQL, for a suite with `database:`; null without. */
    val database: RunningDatabase?,
)

/**
 * A kind of measurement probe ([WindowProbe]): each probe's file in this package declares its kind as a nested
 * `object Kind : ProbeKind`, and the run takes every kind there is ([ALL]: the implementations the compiler permits
 * this sealed interface, read from its class file), so adding a probe is adding its file (and, if it has one, its
 * report section, `report/ProbeSection`), nothing else.
 */
sealed interface ProbeKind {
    /** This kind's probes for the run: none where it has nothing to measure (no app profiled, no database). */
    fun probes(run: ProbeContext): List<WindowProbe>

    companion object {
        /** Every kind, each an object, in the order of their class names (the order their probes start in). */
        val ALL: List<ProbeKind> by lazy { sealedObjects(ProbeKind::class.java) }

        /**
         * The object instances of a sealed type's implementations (Kotlin writes them into the class file's
         * PermittedSubclasses for a JVM target of 17 and later), by class name; fails naming an implementation that
         * is not an object.
         */
        fun <T : Any> sealedObjects(type: Class<T>): List<T> {
            val permitted = checkNotNull(type.permittedSubclasses) { "${type.name} is not sealed" }
            return permitted.sortedBy { it.name }.map { cls ->
                val instance = runCatching { cls.getField("INSTANCE") }.getOrNull()
                    ?: error("${cls.name} implements ${type.simpleName} but is not an object: declare it `object`")
                type.cast(instance.get(null))
            }
        }
    }
}
