package stackbench.runner.isolation

import java.nio.file.Files
import java.nio.file.Path
import kotlin.io.path.exists
import kotlin.io.path.isDirectory
import kotlin.io.path.listDirectoryEntries
import kotlin.io.path.readText
import kotlin.io.path.writeText

/** The file operations cgroups need; a seam so setup and teardown are tested without a kernel. */
interface CgroupFs {
    fun exists(path: Path): Boolean
    fun mkdir(path: Path)
    fun rmdir(path: Path)
    fun read(path: Path): String?
    fun write(path: Path, value: String)
    fun children(path: Path): List<Path>
}

object KernelCgroupFs : CgroupFs {
    override fun exists(path: Path) = path.exists()
    override fun mkdir(path: Path) {
        if (!path.exists()) Files.createDirectory(path)
    }
    // a cgroup directory is removed with rmdir even though it lists files: they are the kernel's
    override fun rmdir(path: Path) = Files.delete(path)
    override fun read(path: Path): String? = runCatching { path.readText() }.getOrNull()
    override fun write(path: Path, value: String) = path.writeText(value)
    override fun children(path: Path): List<Path> = if (path.isDirectory()) path.listDirectoryEntries().filter { it.isDirectory() } else emptyList()
}
