package stackbench.runner.sut

import java.io.IOException
import java.nio.channels.FileChannel
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.StandardOpenOption
import java.util.concurrent.TimeUnit

/**
 * A faster start of a built app jar, for the lab's own tests (never for a cell whose start-up is a finding): the
 * Spring Boot jar extracted once beside itself (`-Djarmode=tools extract`: plain jars on the class path, which the
 * JVM's class-data sharing can archive, where the fat jar's nested ones cannot), and a dynamic class-data archive
 * that the JVM writes when the first process exits (`-XX:+AutoCreateSharedArchive`) and maps at every later start.
 *
 * Measured on one pinned CPU, Tomcat on Boot 4.1, to the end of its context refresh: the fat jar 17.4 s, extracted
 * 11.1 s, extracted with the archive 6.2 s. The first process pays about 4 s at its exit to write the archive:
 * give it that long before a SIGKILL ([EXIT_GRACE_SECONDS]), or the archive is written by a later one.
 */
object FastStart {
    /** How long a process started this way may take to exit after SIGTERM: it writes the archive then. */
    const val EXIT_GRACE_SECONDS = 20L

    /** The JVM options and `-jar` that start [jar] on [java] this way, in place of `-jar jar`; extracts it first where needed. */
    fun launch(java: Path, jar: Path): List<String> {
        val dir = extracted(java, jar)
        return listOf(
            "-XX:+AutoCreateSharedArchive", "-XX:SharedArchiveFile=${dir.resolve(archive(java))}",
            // the archive's notes (classes it skips) are not the app's log
            "-Xlog:cds=off", "-Xlog:cds+dynamic=off",
            "-jar", dir.resolve(jar.fileName).toString(),
        )
    }

    /**
     * The folder the jar is extracted to (`target/fast-start/<jar name without .jar>/`), extracted anew when the jar is
     * newer than the last extraction (its stamp names the jar's size and time); one process at a time (a file lock).
     */
    fun extracted(java: Path, jar: Path): Path {
        require(Files.isRegularFile(jar)) { "$jar is missing: build the apps first" }
        val dir = jar.resolveSibling("fast-start").resolve(jar.fileName.toString().removeSuffix(".jar"))
        Files.createDirectories(dir.parent)
        val stamp = "${Files.size(jar)} ${Files.getLastModifiedTime(jar).toMillis()}"
        FileChannel.open(dir.parent.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE).use { channel ->
            channel.lock().use {
                val stampFile = dir.resolve(STAMP)
                if (Files.isRegularFile(stampFile) && Files.readString(stampFile) == stamp) return dir
                dir.toFile().deleteRecursively()
                val log = Files.createTempFile("fast-start", ".log")
                val process = ProcessBuilder(java.toString(), "-Djarmode=tools", "-jar", jar.toString(), "extract", "--destination", dir.toString())
                    .redirectErrorStream(true).redirectOutput(log.toFile()).start()
                val done = process.waitFor(120, TimeUnit.SECONDS)
                if (!done) process.destroyForcibly()
                if (!done || process.exitValue() != 0 || !Files.isRegularFile(dir.resolve(jar.fileName))) {
                    throw IOException("extracting $jar for a fast start failed (${if (done) "exit ${process.exitValue()}" else "no end in 120 s"}): " +
                        Files.readAllLines(log).takeLast(5).joinToString(" / "))
                }
                Files.deleteIfExists(log)
                Files.writeString(stampFile, stamp)
            }
        }
        return dir
    }

    /** An archive per JVM: one JDK cannot map another's, and would rewrite it at every exit. */
    private fun archive(java: Path): String {
        val real = runCatching { java.toRealPath() }.getOrDefault(java.toAbsolutePath())
        return "app-${Integer.toHexString(real.toString().hashCode())}.jsa"
    }
    private const val STAMP = ".extracted-from"
}
