package stackbench.runner

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import java.nio.file.Files
import java.nio.file.Path

/**
 * The runner's packages and what each uses of the others, read from the sources (imports and fully qualified
 * names in code; comments do not count). A guard: no package cycle, and the catalog at the bottom.
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
    fun `the pure packages start no process`() {
        for (p in listOf("catalog", "report", "results", "stats", "ceiling", "plan", "suite", "yaml")) {
            val uses = PackageGraph.sources(p).filter { (_, text) -> "ProcessBuilder" in text || "Runtime.getRuntime().exec" in text }
            assertThat(uses.map { it.first.fileName.toString() }).describedAs("$p starts processes").isEmpty()
        }
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
        val doc = listOf(Path.of("../docs/architecture.md"), Path.of("docs/architecture.md")).first { Files.isRegularFile(it) }
        val text = Files.readString(doc).substringAfter("What each package uses of the others")
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

    fun render(graph: Map<String, Set<String>>): String =
        graph.entries.joinToString("\n") { (p, uses) -> "%-10s -> %s".format(p, uses.sorted().joinToString(" ")) }

    @JvmStatic
    fun main(args: Array<String>) = println(render(read()))
}
