package stackbench.runner.cli

import stackbench.runner.report.PageLinks
import stackbench.runner.results.PublishedRecord
import stackbench.runner.results.ResultsStore
import stackbench.runner.results.RunStatus
import stackbench.runner.results.Sittings
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.StandardCopyOption

/**
 * A finished run made public (`publish`, `findings-run --publish`): copied to docs/runs/<run>/ as readers open it, the
 * record compressed (results.json.gz, what `findings` reads), its summary, suite and pages, and every file that the
 * summary and the pages link inside the run's folder (flame graphs, profile differences), so that no link is dead.
 */
object Publishing {
    /** The files of a published run besides its compressed record, when the run wrote them. */
    private val BESIDE = listOf("summary.md", "suite.yaml", "report.html", "compare.html")

    /** The pages whose links are followed: what a reader opens first. */
    private val PAGES = listOf("summary.md", "report.html", "compare.html")

    /** Each of [runs] that finished in [from]`/<run>/`, published to [to]`/<run>/`; the others are named and left as they were. */
    fun publish(runs: List<String>, from: Path, to: Path) {
        for (run in runs) publish(from.resolve(run), to.resolve(run), "findings-run $run")
    }

    /**
     * Publishes the run in [dir] to [target] when it finished, from a clean tree at a recorded commit; else prints why not
     * (naming [resume], the command that would finish it) and leaves [target] as it was. True when published.
     */
    fun publish(dir: Path, target: Path, resume: String): Boolean {
        val name = dir.fileName.toString()
        if (!Files.isRegularFile(dir.resolve(ResultsStore.JSON_FILE))) {
            println("not published: $name has no results in $dir")
            return false
        }
        val result = try { ResultsStore.read(dir) } catch (e: IllegalArgumentException) { throw BadInput("${e.message}") }
        val status = result.run.status
        if (status != RunStatus.COMPLETE) {
            println("not published: $name is ${status.name.lowercase()} in $dir; finish it first ($resume resumes it)")
            return false
        }
        Sittings.unpublishable(Sittings.of(result))?.let { why ->
            println("not published: $name $why; commit, then run it again into another folder")
            return false
        }
        Files.createDirectories(target)
        val beside = BESIDE.map { dir.resolve(it) }.filter { Files.isRegularFile(it) }
        val linked = linked(dir)
        val stale = stale(target, setOf(ResultsStore.GZIP_FILE) + (beside + linked).map { dir.relativize(it).toString() })
        PublishedRecord.copy(dir.resolve(ResultsStore.JSON_FILE), target.resolve(ResultsStore.GZIP_FILE))
        (beside + linked).forEach { file ->
            val to = target.resolve(dir.relativize(file).toString())
            Files.createDirectories(to.parent)
            Files.copy(file, to, StandardCopyOption.REPLACE_EXISTING)
        }
        val bytes = Files.walk(target).use { s -> s.filter { Files.isRegularFile(it) }.mapToLong { Files.size(it) }.sum() }
        println("published $target: ${beside.size + linked.size + 1} files (${linked.size} linked by its pages), ${bytes / 1024} KiB" +
            if (stale.isEmpty()) "" else "; ${stale.size} file(s) of its earlier publication removed (${stale.take(3).joinToString()}${if (stale.size > 3) ", ..." else ""})")
        return true
    }

    /**
     * Removes the files under [target] that the new publication does not write ([keeps], relative paths), and the
     * folders they leave empty: an earlier publication's report or flame graphs must not stay beside a record that no
     * longer links them. Their names, relative to [target]; git keeps what they were.
     */
    private fun stale(target: Path, keeps: Set<String>): List<String> {
        val files = Files.walk(target).use { s -> s.filter { Files.isRegularFile(it) }.toList() }
        val gone = files.filter { target.relativize(it).toString() !in keeps }.onEach { Files.delete(it) }
        Files.walk(target).use { s -> s.filter { Files.isDirectory(it) && it != target }.sorted(Comparator.reverseOrder()).toList() }
            .forEach { d -> if (Files.list(d).use { it.findFirst().isEmpty }) Files.delete(d) }
        return gone.map { target.relativize(it).toString() }.sorted()
    }

    /** The files inside [dir] that its pages link, each once; a link that leaves the folder or names no file is not copied. */
    fun linked(dir: Path): List<Path> {
        val root = dir.toAbsolutePath().normalize()
        return PAGES.map { root.resolve(it) }.filter { Files.isRegularFile(it) }
            .flatMap { page -> PageLinks.relative(Files.readString(page)).map { page.parent.resolve(it).normalize() } }
            .filter { it.startsWith(root) && Files.isRegularFile(it) && root.relativize(it).toString() !in BESIDE }
            .distinct()
    }
}
