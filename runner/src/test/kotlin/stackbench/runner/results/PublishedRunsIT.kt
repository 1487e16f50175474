package stackbench.runner.results

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.parallel.ResourceLock
import stackbench.runner.testing.Background
import stackbench.runner.testing.SharedMachine
import tools.jackson.databind.JsonNode
import tools.jackson.databind.node.ObjectNode
import java.nio.file.Files
import java.nio.file.Path
import java.util.zip.GZIPInputStream
import kotlin.io.path.isDirectory
import kotlin.io.path.isRegularFile

/** The runs published under docs/runs, read by this version: they are many and large, so this runs in the integration lane. */
@Background
@ResourceLock(SharedMachine.LANE_1)
class PublishedRunsIT {
    /**
     * Every run published under docs/runs (schema 1, and schema 2 since 2026-12-06) reads as schema 2 with the same figures: each cell's throughput and
     * each decision's ratio and relation as the file holds them; the report and the summary render from it.
     */
    @Test
    fun `every published run reads and renders, its cells' throughputs and decisions' ratios as its file holds them`() {
        val runs = Path.of(System.getProperty("stackbench.home")).resolve("docs/runs")
        val folders = Files.list(runs).use { s -> s.filter { it.isDirectory() && it.resolve(ResultsStore.GZIP_FILE).isRegularFile() }.toList() }
        assertThat(folders).`as`("published runs under $runs").isNotEmpty()
        for (folder in folders) {
            val raw: JsonNode = GZIPInputStream(Files.newInputStream(folder.resolve(ResultsStore.GZIP_FILE))).use { Json.mapper.readTree(it) }
            val run = ResultsStore.read(folder)
            assertThat(run.cells).`as`("$folder cells").hasSize(raw["cells"].size())
            val schema = (raw as ObjectNode).path("schema").asString()
            assertThat(schema).isIn(SchemaUpgrade.SCHEMA_1, SCHEMA)
            // where each schema keeps a window's throughput and a decision's engine fields
            val one = schema == SchemaUpgrade.SCHEMA_1
            raw["cells"].values().zip(run.cells).forEach { (r, c) ->
                val measured = if (one) r.path("measured") else r.path("window").path("measured")
                val throughput = measured.path("throughput").takeIf { it.isNumber }?.doubleValue()
                assertThat(c.window.measured?.throughput).`as`("$folder ${c.key}").isEqualTo(throughput)
            }
            raw.path("decisions").values().zip(run.decisions).forEach { (r, d) ->
                val engine = if (one) r else r.path("decision")
                assertThat(d.decision.ratio).`as`("$folder ${d.name}").isEqualTo(engine.path("ratio").takeIf { it.isNumber }?.doubleValue())
                assertThat(d.decision.relation.id).isEqualTo(engine["relation"].asString().lowercase())
            }
            // and renders: the report and the summary from the record as read
            assertThat(stackbench.runner.report.HtmlReport.render(run)).`as`("$folder report").contains(run.run.suite)
            assertThat(stackbench.runner.report.MarkdownSummary.render(run)).`as`("$folder summary").contains(run.run.suite)
        }
    }
}
