package stackbench.runner

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import java.nio.file.Files
import java.nio.file.Path

/**
 * The runner's packages and what each uses of the others, read from the sources (imports and fully qualified
 * names in code; comments do not count). A guard: no package cycle, the catalog at the bottom, no edge to a later
 * stage, and the packages drawn as pure without a process or a file written.
 */
class PackageGraphTest {
    @Test
    fun `no package of the runner depends on itself through others`() {
        val cycles = PackageGraph.cycles(graph)
        assertThat(cycles).describedAs(PackageGraph.render(graph)).isEmpty()
    }

    @Test
    fun `the catalog imports nothing else from the runner`() {
        assertThat(graph.getValue("catalog")).isEmpty()
    }

    @Test
    fun `the packages the table calls pure start no process and write no file`() {
        val pure = PackageGraph.pure()
        assertThat(pure).`as`("the pure packages read from docs/architecture.md").contains("catalog", "decide", "report", "stats", "suite", "yaml")
        for (p in pure) {
            val found = PackageGraph.sources(p).flatMap { (file, text) -> PackageGraph.effects(text).map { "${file.fileName}: $it" } }
            assertThat(found).describedAs("$p is drawn as pure").isEmpty()
        }
    }

    @Test
    fun `an effect in a pure package is found`() {
        assertThat(PackageGraph.effects("fun f(p: Path) = Files.writeString(p, \"x\")")).containsExactly("Files.writeString")
        assertThat(PackageGraph.effects("val p = ProcessBuilder(listOf(\"ls\")).start()")).containsExactly("ProcessBuilder")
        assertThat(PackageGraph.effects("// Files.writeString(p, x) in a comment\nval x = 1")).isEmpty()
    }

    @Test
    fun `a package uses only packages of its own stage or an earlier one`() {
        val stages = PackageGraph.stages()
        assertThat(stages.values.flatten()).`as`("every package in exactly one stage").doesNotHaveDuplicates()
            .containsExactlyInAnyOrderElementsOf(graph.keys)
        assertThat(PackageGraph.backEdges(graph, stages)).describedAs(PackageGraph.render(graph)).isEmpty()
    }

    @Test
    fun `an edge to a later stage is rejected and named`() {
        val stages = PackageGraph.stages()
        // the record reading the suite loop, or the engine a view: both point forward
        val back = graph + ("results" to graph.getValue("results") + "run") + ("decide" to graph.getValue("decide") + "report")
        assertThat(PackageGraph.backEdges(back, stages)).containsExactly("decide (decide) -> report (views)", "results (record) -> run (run)")
    }

    @Test
    fun `the graph drawn in docs-architecture_md is the one the code's imports make`() {
        val drawn = PackageGraph.drawn()
        assertThat(drawn.keys).`as`("packages drawn vs packages in the code").containsExactlyInAnyOrderElementsOf(graph.keys)
        val differ = graph.keys.sorted().mapNotNull { p ->
            val doc = drawn.getValue(p) ?: return@mapNotNull null // "everything above"
            val code = graph.getValue(p)
            if (doc == code) null else "$p: drawn but not in the code ${(doc - code).sorted()}, in the code but not drawn ${(code - doc).sorted()}"
        }
        assertThat(differ).describedAs("the code's graph:\n" + PackageGraph.render(graph)).isEmpty()
    }

    private val graph = PackageGraph.read()
}

/** Reads the package graph of the runner's main sources; `PackageGraph.main` prints it. */
object PackageGraph {
    private val root: Path = listOf(Path.of("src/main/kotlin/stackbench/runner"), Path.of("runner/src/main/kotlin/stackbench/runner"))
        .first { Files.isDirectory(it) }
    private val reference = Regex("""stackbench\.runner\.([a-z]+)\.""")

    fun packages(): List<String> = Files.list(root).use { s -> s.filter { Files.isDirectory(it) }.map { it.fileName.toString() }.sorted().toList() }

    fun sources(pkg: String): List<Pair<Path, String>> {
        val dir = root.resolve(pkg)
        if (!Files.isDirectory(dir)) return emptyList()
        return Files.list(dir).use { s -> s.filter { it.toString().endsWith(".kt") }.sorted().toList() }.map { it to Files.readString(it) }
    }

    /** Each package to the packages its code names. */
    fun read(): Map<String, Set<String>> = packages().associateWith { p ->
        sources(p).flatMap { (_, text) -> reference.findAll(code(text)).map { it.groupValues[1] }.toList() }.toSet() - p
    }

    /** The text without comments: a KDoc link to another package is no dependency. */
    private fun code(text: String): String = text.replace(Regex("""/\*.*?\*/""", RegexOption.DOT_MATCHES_ALL), "")
        .lines().joinToString("\n") { it.substringBefore("//") }

    /** Every cycle, as the packages along it (each found once, from its smallest name). */
    fun cycles(graph: Map<String, Set<String>>): List<List<String>> {
        val found = mutableListOf<List<String>>()
        fun walk(path: List<String>) {
            for (next in graph[path.last()].orEmpty()) {
                if (next == path.first()) found += path + next
                else if (next !in path && next > path.first()) walk(path + next)
            }
        }
        graph.keys.sorted().forEach { walk(listOf(it)) }
        return found
    }

    /**
     * The graph docs/architecture.md draws, after "What each package uses of the others": `a, b   (use no other package)`,
     * `p -> q r` (two entries may share a line), and `p -> everything above` (null: anything).
     */
    fun drawn(): Map<String, Set<String>?> {
        val text = architecture().substringAfter("What each package uses of the others")
        val block = text.substringAfter("```\n").substringBefore("```")
        val drawn = linkedMapOf<String, Set<String>?>()
        for (line in block.lines().filter { it.isNotBlank() }) {
            if ("(use no other package)" in line) {
                line.substringBefore("(").split(',').map { it.trim() }.filter { it.isNotEmpty() }.forEach { drawn[it] = emptySet() }
                continue
            }
            Regex("""([a-z]+)\s+->\s+((?:[a-z]+ ?)+?)(?=\s{2,}[a-z]+\s+->|\s*$)""").findAll(line).forEach { m ->
                val uses = m.groupValues[2].trim()
                drawn[m.groupValues[1]] = if (uses == "everything above") null else uses.split(Regex("\\s+")).toSet()
            }
        }
        return drawn
    }

    private fun architecture(): String =
        Files.readString(listOf(Path.of("../docs/architecture.md"), Path.of("docs/architecture.md")).first { Files.isRegularFile(it) })

    /** The stages docs/architecture.md draws after "The stages, first to last", in order: each stage's name to its packages. */
    fun stages(): LinkedHashMap<String, List<String>> {
        val block = architecture().substringAfter("The stages, first to last").substringAfter("```\n").substringBefore("```")
        val stages = LinkedHashMap<String, List<String>>()
        for (line in block.lines().filter { it.isNotBlank() }) stages[line.substringBefore(':').trim()] = line.substringAfter(':').trim().split(Regex("\\s+"))
        return stages
    }

    /** Each edge of [graph] from a package to one of a later stage, "p (its stage) -> q (its stage)", sorted. */
    fun backEdges(graph: Map<String, Set<String>>, stages: Map<String, List<String>>): List<String> {
        val order = stages.keys.toList()
        val stageOf = stages.flatMap { (stage, packages) -> packages.map { it to stage } }.toMap()
        return graph.flatMap { (p, uses) ->
            val from = stageOf[p] ?: return@flatMap listOf("$p (no stage)")
            uses.filter { q -> order.indexOf(stageOf[q] ?: return@filter true) > order.indexOf(from) }.map { q -> "$p ($from) -> $q (${stageOf[q] ?: "no stage"})" }
        }.sorted()
    }

    /** The packages the table of docs/architecture.md marks pure (`yes` in its last column). */
    fun pure(): Set<String> = architecture().substringAfter("| package | holds | pure? |").substringBefore("\n\n").let { table ->
        table.lines().filter { it.startsWith("| `") && it.trimEnd().removeSuffix("|").substringAfterLast('|').trim() == "yes" }
            .flatMap { row -> Regex("`([a-z]+)`").findAll(row.substringBefore(" | ")).map { it.groupValues[1] }.toList() }.toSet()
    }

    private val effectPatterns = listOf(
        "ProcessBuilder", "Runtime.getRuntime().exec", "Files.write", "Files.writeString", "Files.newBufferedWriter", "Files.newOutputStream",
        "Files.createDirectories", "Files.createFile", "Files.copy", "Files.move", "Files.delete", "AtomicFiles.", "FileOutputStream", "FileWriter",
        ".writeText(", ".writeBytes(", "saveChartAsPNG", "ImageIO.write",
    )

    /** What in [text] (comments aside) starts a process or writes a file. */
    fun effects(text: String): List<String> {
        val code = code(text)
        return effectPatterns.filter { pattern ->
            if (pattern == "Files.write") Regex("""Files\.write\(""").containsMatchIn(code) else pattern in code
        }
    }

    fun render(graph: Map<String, Set<String>>): String =
        graph.entries.joinToString("\n") { (p, uses) -> "%-10s -> %s".format(p, uses.sorted().joinToString(" ")) }

    @JvmStatic
    fun main(args: Array<String>) = println(render(read()))
}
