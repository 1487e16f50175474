package stackbench.runner.report

import stackbench.runner.results.ResultsStore
import stackbench.runner.results.RunResult
import java.nio.file.Files
import java.nio.file.Path

/**
 * The recorded results under src/test/resources/report/ (see the README there): real small runs, one
 * hand-edited synthetic run, and one whose every string is hostile. Rendering fixtures, never measurements.
 */
object ReportFixtures {
    const val SWEEP = "sweep"
    const val HOSTILE = "hostile"
    const val SYNTHETIC = "synthetic"
    const val COMPARE_A = "compare-a"
    const val COMPARE_B = "compare-b"

    /** The string every text field of the hostile fixture contains. */
    const val HOSTILE_TEXT = "<script>alert(1)</script> \"quotes\" 'single' </script><!-- &amp; <img src=x onerror=\"window.__pwned=1\"> | *md* `tick`"

    fun path(name: String): Path = Path.of(ReportFixtures::class.java.getResource("/report/$name/results.json")!!.toURI())

    fun load(name: String): RunResult = ResultsStore.read(path(name))

    /** A results folder in [dir] holding a copy of the fixture's results.json, to render into. */
    fun copy(name: String, dir: Path): Path {
        val folder = dir.resolve(name)
        Files.createDirectories(folder)
        Files.copy(path(name), folder.resolve("results.json"))
        return folder
    }
}
