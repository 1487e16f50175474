package stackbench.runner.env

import stackbench.runner.results.Environment
import java.net.InetAddress
import java.nio.file.Path
import java.util.concurrent.TimeUnit

/** Reads the facts of the machine and software a run measures on. */
object EnvironmentProbe {
    /** A run records at most this many changed paths of a dirty tree (and says how many more there were). */
    const val MAX_CHANGES_RECORDED = 50

    private val system by lazy { runCatching { oshi.nativefree.SystemInfo() }.getOrNull() }

    val logicalCpus: Int get() = Runtime.getRuntime().availableProcessors().coerceAtLeast(machineCpus())

    /** CPUs of the machine, not of this process's affinity. */
    fun machineCpus(): Int = system?.hardware?.processor?.logicalProcessorCount ?: Runtime.getRuntime().availableProcessors()

    /** This machine's name, as runs record it (`environment.hostname`) and the history finds a machine's runs by. */
    fun hostname(): String = runCatching { InetAddress.getLocalHost().hostName }.getOrDefault("unknown")

    /** [output]: the run's results folder, whose files are what the run writes, not a change of the tree it ran from. */
    fun read(home: Path, java: Path, isolation: String, drivers: Map<String, String>, output: Path? = null): Environment {
        val hw = system?.hardware
        val os = system?.operatingSystem
        val status = gitStatus(home, output)
        return Environment(
            hostname = hostname(),
            os = os?.toString() ?: System.getProperty("os.name"),
            kernel = System.getProperty("os.version"),
            cpuModel = hw?.processor?.processorIdentifier?.name?.trim() ?: "unknown",
            logicalCpus = machineCpus(),
            physicalCpus = hw?.processor?.physicalProcessorCount ?: machineCpus(),
            memoryBytes = hw?.memory?.total ?: -1,
            runnerJdk = "${System.getProperty("java.vendor")} ${System.getProperty("java.runtime.version")}",
            appJdk = javaVersion(java),
            gitCommit = gitCommit(home),
            gitDirty = status?.isNotEmpty(),
            gitChanges = status?.takeIf { it.isNotEmpty() }?.let { all ->
                all.take(MAX_CHANGES_RECORDED) + listOfNotNull((all.size - MAX_CHANGES_RECORDED).takeIf { it > 0 }?.let { "... and $it more" })
            },
            drivers = drivers,
            isolation = isolation,
        )
    }

    private fun javaVersion(java: Path): String = run(listOf(java.toString(), "-version"), null)?.lines()?.firstOrNull()?.trim() ?: "unknown"

    /** The commit [home] is checked out at; null outside a git checkout. */
    fun gitCommit(home: Path): String? = run(listOf("git", "-C", home.toString(), "rev-parse", "HEAD"), null)?.trim()

    /**
     * `git status --porcelain` of [home], a line a changed path (empty: a clean tree); null outside a git checkout.
     * [except] (a folder inside [home], such as a run's own results folder) is left out: a file beside it still counts.
     */
    fun gitStatus(home: Path, except: Path? = null): List<String>? =
        // not trimmed: a status line starts with its two columns, the first often a space
        run(listOf("git", "-C", home.toString(), "status", "--porcelain") + statusPathspec(home, except), null)?.lines()?.filter { it.isNotBlank() }

    /** The pathspec that leaves [except] out of [home]'s status; none when it is not inside [home]. */
    fun statusPathspec(home: Path, except: Path?): List<String> {
        val root = home.toAbsolutePath().normalize()
        val folder = except?.toAbsolutePath()?.normalize()?.takeIf { it.startsWith(root) && it != root } ?: return emptyList()
        return listOf("--", ":/", ":(exclude)${root.relativize(folder)}")
    }

    fun run(command: List<String>, dir: Path?): String? = runCatching {
        val p = ProcessBuilder(command).redirectErrorStream(true).apply { dir?.let { directory(it.toFile()) } }.start()
        val out = p.inputStream.bufferedReader().readText()
        if (!p.waitFor(10, TimeUnit.SECONDS)) { p.destroyForcibly(); return null }
        if (p.exitValue() != 0 && command.first() == "git") null else out
    }.getOrNull()

}
