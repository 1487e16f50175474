package stackbench.runner.results

import stackbench.runner.suite.Secrets
import java.nio.file.Files
import java.nio.file.Path
import kotlin.io.path.isRegularFile

/**
 * The last guard of `${env:NAME}` values: the lab writes none itself (its records and scripts keep the placeholder),
 * but an app, a load generator or a JVM may echo one (an access log with the query, an error naming the URL). Every
 * file of a folder that holds a value gets it written back as its placeholder, in place. Files the lab writes
 * compressed or binary (a JFR recording, a `.gz`) hold nothing it was given as text, and are skipped, as are files
 * larger than [MAX_BYTES].
 */
object SecretSweep {
    const val MAX_BYTES = 256L * 1024 * 1024

    /** Redacts [names]' values under [folder]; returns the files it rewrote, relative to [folder]. */
    fun sweep(folder: Path, names: Collection<String>, env: Map<String, String> = System.getenv()): List<Path> {
        val values = Secrets.values(names, env)
        if (values.isEmpty() || !Files.isDirectory(folder)) return emptyList()
        val needles = values.values.flatMap { listOf(it, Secrets.percentEncode(it)) }.distinct().map { it.toByteArray() }
        val rewritten = mutableListOf<Path>()
        Files.walk(folder).use { paths ->
            for (file in paths.filter { it.isRegularFile() && !skipped(it) }.toList()) {
                val bytes = runCatching { Files.readAllBytes(file) }.getOrNull() ?: continue
                if (needles.none { contains(bytes, it) }) continue
                val text = String(bytes, Charsets.UTF_8)
                AtomicFiles.write(file, Secrets.redact(text, names, env))
                rewritten.add(folder.relativize(file))
            }
        }
        return rewritten
    }

    private fun skipped(file: Path): Boolean {
        val name = file.fileName.toString()
        return name.endsWith(".gz") || name.endsWith(".jfr") || name.endsWith(".png") || Files.size(file) > MAX_BYTES
    }

    private fun contains(haystack: ByteArray, needle: ByteArray): Boolean {
        if (needle.isEmpty() || needle.size > haystack.size) return false
        outer@ for (i in 0..haystack.size - needle.size) {
            for (j in needle.indices) if (haystack[i + j] != needle[j]) continue@outer
            return true
        }
        return false
    }
}
