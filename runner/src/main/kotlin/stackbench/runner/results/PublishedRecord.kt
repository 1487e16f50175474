package stackbench.runner.results

import java.io.ByteArrayOutputStream
import java.nio.file.Files
import java.nio.file.Path
import java.util.zip.Deflater
import java.util.zip.GZIPOutputStream

/**
 * A published run's record as docs/runs keeps it: results.json compressed (results.json.gz), at the highest level.
 * Java's gzip header carries no time or name, so the same record gives the same bytes.
 */
object PublishedRecord {
    /** Compresses the run folder's [source] results.json to [target], written whole. */
    fun copy(source: Path, target: Path) = AtomicFiles.write(target, gzip(Files.readAllBytes(source)))

    /** Writes [result] to [dir]`/results.json.gz`, written whole. */
    fun write(result: RunResult, dir: Path): Path =
        dir.resolve(ResultsStore.GZIP_FILE).also { AtomicFiles.write(it, gzip(Json.mapper.writeValueAsBytes(result))) }

    private fun gzip(bytes: ByteArray): ByteArray {
        val out = ByteArrayOutputStream(bytes.size / 8)
        object : GZIPOutputStream(out) {
            init { def.setLevel(Deflater.BEST_COMPRESSION) }
        }.use { it.write(bytes) }
        return out.toByteArray()
    }
}
