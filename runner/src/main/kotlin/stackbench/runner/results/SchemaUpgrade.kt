package stackbench.runner.results

import tools.jackson.databind.node.ObjectNode

/**
 * Reads a `stackbench.results/1` record as schema 2 ([SCHEMA]): the same figures, moved. Schema 1 kept a cell's figures
 * side by side (41 fields) and copied each decision's figures into the record one by one; schema 2 groups a cell's by
 * the stage that measured them and keeps a decision as the engine made it (`decision`). Nothing is computed here: a
 * field moves to its group under its new name, and `relation`'s words become the engine's names. A published run made
 * under schema 1 then reads, renders and decides as a new one (docs/results-schema.md, "Schema 1").
 */
object SchemaUpgrade {
    const val SCHEMA_1 = "stackbench.results/1"

    /** Cell field of schema 1 → (group, field) of schema 2. */
    val CELL_MOVES: List<Triple<String, String, String>> = listOf(
        Triple("sut", "system", "sut"),
        Triple("runtime", "system", "runtime"),
        Triple("info", "system", "info"),
        Triple("statsThreads", "system", "statsThreads"),
        Triple("startup", "start", "startup"),
        Triple("prime", "start", "prime"),
        Triple("compileFirst", "warmup", "compileFirst"),
        Triple("warmupRecord", "warmup", "record"),
        Triple("warmupAgain", "warmup", "again"),
        Triple("settling", "warmup", "settling"),
        Triple("warmupSteps", "warmup", "steps"),
        Triple("quietAfterWarmupMs", "warmup", "quietAfterMs"),
        Triple("measured", "window", "measured"),
        Triple("windowShape", "window", "shape"),
        Triple("jvm", "window", "jvm"),
        Triple("pace", "window", "pace"),
        Triple("resources", "resources", "summary"),
        Triple("samples", "resources", "samples"),
        Triple("idle", "ceiling", "idle"),
        Triple("ceiling", "ceiling", "bound"),
    )

    /** The fields of a schema-1 decision that the engine's own record (stats/RatioDecision) holds. */
    val DECISION_FIELDS = listOf(
        "ratio", "low", "high", "pValue", "nA", "nB", "threshold", "relation", "why",
        "method", "processesA", "processesB", "df", "confidence", "look", "maxLooks", "pExact",
    )

    /** Schema 1's relation words → the engine's [stackbench.runner.stats.Relation] names. */
    private val RELATIONS = stackbench.runner.stats.Relation.entries.associate { it.id to it.name }

    /** [tree] (a schema-1 record) rewritten in place as schema 2. */
    fun from1(tree: ObjectNode): ObjectNode {
        for (cell in tree.path("cells").values()) if (cell is ObjectNode) cell(cell)
        for (d in tree.path("decisions").values()) if (d is ObjectNode) decision(d)
        tree.put("schema", SCHEMA)
        return tree
    }

    private fun cell(cell: ObjectNode) {
        // schema 1's `warmup` was a LoadResult that stayed empty since warm-ups are watched on the app's own counter
        cell.remove("warmup")
        val moved = CELL_MOVES.mapNotNull { (old, group, new) -> cell.remove(old)?.let { Triple(group, new, it) } }
        for ((group, new, value) in moved) {
            val target = cell.get(group) as? ObjectNode ?: cell.putObject(group)
            target.set(new, value)
        }
    }

    private fun decision(d: ObjectNode) {
        val engine = d.putObject("decision")
        for (f in DECISION_FIELDS) d.remove(f)?.let { engine.set(f, it) }
        d.remove("decided")
        engine.get("relation")?.asString()?.let { words ->
            engine.put("relation", requireNotNull(RELATIONS[words]) { "a decision's relation '$words' is none of ${RELATIONS.keys}" })
        }
    }
}
