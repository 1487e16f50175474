package stackbench.runner.results

import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.StandardCopyOption

/**
 * Writing a file whole or not at all: to a temporary file beside it first, then renamed over the old one, so a
 * reader, or a run cut off mid-write, never sees half a file.
 */
object AtomicFiles {
    fun write(target: Path, bytes: ByteArray) {
        val tmp = target.resolveSibling(".${target.fileName}.tmp")
        Files.write(tmp, bytes)
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE)
    }

    fun write(target: Path, text: String) = write(target, text.toByteArray(Charsets.UTF_8))
}
