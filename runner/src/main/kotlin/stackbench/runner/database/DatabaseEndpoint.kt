package stackbench.runner.database

import stackbench.runner.suite.DatabaseSpec

/** Where the run's database answers and who may log in: what an app is given to reach it. */
data class DatabaseEndpoint(
    val host: String,
    val port: Int,
    val name: String = DatabaseSpec.NAME,
    val user: String = DatabaseSpec.USER,
    val password: String = DatabaseSpec.PASSWORD,
) {
    val jdbcUrl: String get() = "jdbc:postgresql://$host:$port/$name"
    val r2dbcUrl: String get() = "r2dbc:postgresql://$host:$port/$name"

    /** What each of [DatabaseSpec.PLACEHOLDERS] becomes in an own app's args and env. */
    fun placeholders(): Map<String, String> = mapOf(
        "{db.jdbc-url}" to jdbcUrl, "{db.r2dbc-url}" to r2dbcUrl, "{db.user}" to user, "{db.password}" to password,
        "{db.host}" to host, "{db.port}" to port.toString(), "{db.name}" to name,
    )

    /** The Spring properties a built-in app is given: the JDBC data source, and for a [reactive] stack the R2DBC one too. */
    fun springArgs(reactive: Boolean): List<String> = buildList {
        add("--spring.datasource.url=$jdbcUrl")
        add("--spring.datasource.username=$user")
        add("--spring.datasource.password=$password")
        if (reactive) {
            add("--spring.r2dbc.url=$r2dbcUrl")
            add("--spring.r2dbc.username=$user")
            add("--spring.r2dbc.password=$password")
        }
    }
}
