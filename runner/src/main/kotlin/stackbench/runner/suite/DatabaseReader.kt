package stackbench.runner.suite

import stackbench.runner.yaml.Problems
import stackbench.runner.yaml.Units
import stackbench.runner.yaml.YamlMap
import java.nio.file.Files
import java.nio.file.Path

/**
 * Reads `database: {engine: postgresql, schema: FILE, memory: SIZE, cpus: [IDS], fsync: BOOL, max-connections: N}`.
 * The schema is a path relative to the lab's [home] and must exist; the CPUs must be the machine's and never the app's
 * pinned ones ([appCpus]).
 */
internal class DatabaseReader(private val m: YamlMap, private val problems: Problems, private val home: Path, private val machineCpus: Int, private val appCpus: List<Int>) {
    fun read(): DatabaseSpec {
        val engineNode = m.scalar("engine")
        if (engineNode != null && engineNode.value != DatabaseSpec.ENGINE) {
            problems.at(engineNode, m.qualify("engine"), "'${engineNode.value}' is not a database engine the lab starts", "engine: ${DatabaseSpec.ENGINE}")
        }
        val schemaNode = m.scalar("schema")
        val schema = schemaNode?.value ?: DatabaseSpec.DEFAULT_SCHEMA
        if (schemaNode != null && !Files.isRegularFile(home.resolve(schema))) {
            problems.at(schemaNode, m.qualify("schema"), "'$schema' is not a file", "a SQL file, relative to the lab's folder, e.g. schema: ${DatabaseSpec.DEFAULT_SCHEMA}")
        }
        val memNode = m.scalar("memory")
        var memory: Long? = DatabaseSpec.DEFAULT_MEMORY
        if (memNode != null) {
            memory = if (memNode.value == "none") null else Units.size(memNode.value)
            if (memNode.value != "none" && (memory == null || memory < Units.MIN_MEMORY || memory > Units.MAX_MEMORY)) {
                problems.at(memNode, m.qualify("memory"), "'${memNode.value}' is not a size in 64MiB..1TiB", Units.SIZE_HINT)
            }
        }
        val cpus = m.scalars("cpus")?.flatMap { node ->
            node.value.split(',').mapNotNull { part ->
                val id = part.trim().toIntOrNull()
                when {
                    id == null || id < 0 || id >= machineCpus ->
                        null.also { problems.at(node, m.qualify("cpus"), "'${part.trim()}' is not a CPU of this machine", "CPUs here are 0..${machineCpus - 1}") }
                    id in appCpus ->
                        null.also { problems.at(node, m.qualify("cpus"), "CPU $id is the app's (profile.cpuset): the database never runs on the app's CPUs",
                            "leave cpus out (the CPUs beside the app's) or name others") }
                    else -> id
                }
            }
        }?.distinct()?.sorted() ?: emptyList()
        val fsync = m.boolean("fsync") ?: true
        val maxConnections = m.int("max-connections", DatabaseSpec.MAX_CONNECTIONS) ?: DatabaseSpec.DEFAULT_MAX_CONNECTIONS
        m.finish()
        return DatabaseSpec(DatabaseSpec.ENGINE, schema, memory, cpus, fsync, maxConnections)
    }
}
