package stackbench.runner.catalog

import java.io.File
import java.nio.file.Files
import java.nio.file.Path

/** The one search of the PATH that every tool, driver, browser and `command:` app is found by. Reads only. */
object SearchPath {
    /** The PATH's folders, in order ([path]: the process's PATH unless given). */
    fun folders(path: String? = System.getenv("PATH")): List<String> = path.orEmpty().split(File.pathSeparatorChar).filter { it.isNotEmpty() }

    /** The first executable file named one of [names] in a folder of [path], folder by folder in the PATH's order; null when none. */
    fun find(vararg names: String, path: String? = System.getenv("PATH")): Path? =
        folders(path).asSequence().flatMap { dir -> names.asSequence().map { Path.of(dir, it) } }.firstOrNull(::runnable)

    fun runnable(p: Path): Boolean = Files.isRegularFile(p) && Files.isExecutable(p)
}
