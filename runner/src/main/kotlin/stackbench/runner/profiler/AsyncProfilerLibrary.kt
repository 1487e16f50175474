package stackbench.runner.profiler

import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.StandardCopyOption
import java.util.Properties

/**
 * async-profiler's native library, as its Maven artifact bundles it (one per platform), copied out of the runner's
 * class path once per version into [cacheDir] so that `jcmd JVMTI.agent_load` can load it into an app.
 */
object AsyncProfilerLibrary {
    /** The bundled library's resource for this machine, or null where none is bundled (e.g. not Linux). */
    fun resource(os: String = System.getProperty("os.name"), arch: String = System.getProperty("os.arch")): String? {
        if (!os.lowercase().startsWith("linux")) return null
        val platform = when (arch) {
            "amd64", "x86_64" -> "linux-x64"
            "aarch64", "arm64" -> "linux-arm64"
            else -> return null
        }
        return "$platform/libasyncProfiler.so"
    }

    /** The version of the bundled artifact, from its Maven metadata; null when it is not on the class path. */
    fun version(): String? = javaClass.classLoader.getResourceAsStream("META-INF/maven/tools.profiler/async-profiler/pom.properties")
        ?.use { s -> Properties().also { it.load(s) }.getProperty("version") }

    /** The library in [cacheDir] (copied there first if needed), or null when none is bundled for this machine. */
    fun extract(cacheDir: Path): Path? {
        val resource = resource() ?: return null
        val version = version() ?: return null
        val target = cacheDir.resolve("async-profiler-$version").resolve(resource.substringAfterLast('/'))
        if (Files.isRegularFile(target)) return target
        val input = javaClass.classLoader.getResourceAsStream(resource) ?: return null
        Files.createDirectories(target.parent)
        val partial = Files.createTempFile(target.parent, "lib", ".part")
        input.use { Files.copy(it, partial, StandardCopyOption.REPLACE_EXISTING) }
        Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING)
        return target
    }
}
