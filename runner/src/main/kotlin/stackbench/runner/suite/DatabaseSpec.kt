package stackbench.runner.suite

/**
 * The suite's `database:`: a PostgreSQL server the lab starts beside the app for the whole run, with [schema] (a SQL
 * file, relative to the lab's home) loaded before the first cell. Its CPUs are [cpus] (empty: the CPUs the placement
 * leaves beside the app's), its memory limited to [memoryBytes].
 */
data class DatabaseSpec(
    val engine: String = ENGINE,
    val schema: String = DEFAULT_SCHEMA,
    val memoryBytes: Long? = DEFAULT_MEMORY,
    val cpus: List<Int> = emptyList(),
    val fsync: Boolean = true,
    val maxConnections: Int = DEFAULT_MAX_CONNECTIONS,
) {
    companion object {
        const val ENGINE = "postgresql"
        const val DEFAULT_SCHEMA = "workloads/database/schema.sql"
        const val DEFAULT_MEMORY = 512L shl 20
        const val DEFAULT_MAX_CONNECTIONS = 300
        val MAX_CONNECTIONS = 10..5000

        /** The database, user and password every app of the run is given. */
        const val NAME = "stackbench"
        const val USER = "stackbench"
        const val PASSWORD = "stackbench"

        /** What an own app's args and env may name, filled in at each start. */
        val PLACEHOLDERS = listOf("{db.jdbc-url}", "{db.r2dbc-url}", "{db.user}", "{db.password}", "{db.host}", "{db.port}", "{db.name}")
    }
}
