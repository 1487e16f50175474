package stackbench.runner.results

import tools.jackson.core.JacksonException
import tools.jackson.databind.node.ObjectNode
import java.nio.file.Files
import java.nio.file.Path
import kotlin.io.path.isDirectory
import kotlin.io.path.isRegularFile

/**
 * A run's folder on disk: `results.json` (the record) and `results.csv` (one row per cell), each written whole
 * ([AtomicFiles]), so a reader, or a run cut off mid-write, never sees half a file.
 */
class ResultsStore(
    private val dir: Path,
    /** The environment variables the suite takes values from (`${'$'}{env:NAME}`): any value an excerpt caught is written back as its placeholder. */
    private val secrets: Collection<String> = emptyList(),
) {

    fun write(result: RunResult) {
        Files.createDirectories(dir)
        AtomicFiles.write(dir.resolve(JSON_FILE), redacted(Json.mapper.writeValueAsString(result)))
        AtomicFiles.write(dir.resolve(CSV_FILE), redacted(ResultsCsv.render(result)))
    }

    private fun redacted(text: String) = if (secrets.isEmpty()) text else stackbench.runner.suite.Secrets.redact(text, secrets)

    companion object {
        const val JSON_FILE = "results.json"
        const val CSV_FILE = "results.csv"

        /** A published run's record, compressed (docs/runs keeps them so). */
        const val GZIP_FILE = "$JSON_FILE.gz"

        /** The results file of [path]: a run folder (its results.json, else its results.json.gz), or the file itself. */
        fun fileOf(path: Path): Path = when {
            !path.isDirectory() -> path
            !path.resolve(JSON_FILE).isRegularFile() && path.resolve(GZIP_FILE).isRegularFile() -> path.resolve(GZIP_FILE)
            else -> path.resolve(JSON_FILE)
        }

        /**
         * Reads a run's record, a schema-1 one as schema 2 ([SchemaUpgrade]). Throws [IllegalArgumentException] naming the file when it is missing, is not
         * JSON, or has another schema.
         */
        fun read(path: Path): RunResult {
            val file = fileOf(path)
            require(file.isRegularFile()) {
                if (path.isDirectory()) "$path is not a stackbench results folder: it has no $JSON_FILE (nor $GZIP_FILE)" else "$path does not exist"
            }
            val tree = try {
                if (file.fileName.toString().endsWith(".gz")) java.util.zip.GZIPInputStream(Files.newInputStream(file)).use { Json.mapper.readTree(it) }
                else Json.mapper.readTree(file.toFile())
            } catch (e: JacksonException) {
                throw IllegalArgumentException("$file is not JSON: ${e.originalMessage}")
            }
            val schema = tree.path("schema").asString("")
            require(schema == SCHEMA || schema == SchemaUpgrade.SCHEMA_1 && tree is ObjectNode) {
                if (schema.isEmpty()) "$file is not a stackbench results file (no \"schema\")"
                else "$file has schema \"$schema\"; this version reads \"$SCHEMA\" and \"${SchemaUpgrade.SCHEMA_1}\""
            }
            if (schema == SchemaUpgrade.SCHEMA_1) SchemaUpgrade.from1(tree as ObjectNode)
            return try {
                Json.mapper.treeToValue(tree, RunResult::class.java)
            } catch (e: JacksonException) {
                throw IllegalArgumentException("$file does not match $SCHEMA: ${e.originalMessage} at ${e.pathReference}")
            }
        }
    }
}
