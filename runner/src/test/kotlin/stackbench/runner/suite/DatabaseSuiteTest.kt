package stackbench.runner.suite

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import stackbench.runner.yaml.SuiteException
import stackbench.runner.yaml.SuiteProblem
import java.nio.file.Files
import java.nio.file.Path

/** A suite's `database:` and own apps' `{db.*}` placeholders: what they read into, and every bad input named at its line and column. */
class DatabaseSuiteTest {
    private fun parser(home: Path = Path.of("")) = SuiteParser(MachineFacts(cpus = 4), home)

    private fun parse(yaml: String, home: Path = Path.of("")) = parser(home).parse(yaml.trimIndent(), "suites/db.yaml")

    private fun problems(yaml: String, home: Path = Path.of("")): List<SuiteProblem> =
        (runCatching { parse(yaml, home) }.exceptionOrNull() as? SuiteException)?.problems ?: error("expected the suite to be rejected")

    private fun suite(database: String, profile: String = "{cpus: 1, cpuset: [3], memory: 512MiB}") = """
        name: db
        apps: [{stack: tomcat}]
        profile: $profile
        endpoints: [{kind: noop}]
        $database
    """

    @Test
    fun `a suite without database has none, and database - postgresql takes every default`() {
        assertThat(parse(suite("")).database).isNull()
        assertThat(parse(suite("database: postgresql")).database).isEqualTo(DatabaseSpec())
        assertThat(DatabaseSpec()).isEqualTo(DatabaseSpec("postgresql", "workloads/database/schema.sql", 512L shl 20, emptyList(), true, 300))
    }

    @Test
    fun `every key reads, the schema relative to the lab's home`(@TempDir home: Path) {
        Files.createDirectories(home.resolve("sql"))
        Files.writeString(home.resolve("sql/orders.sql"), "CREATE TABLE t (id int);")
        val db = parse(suite("database: {engine: postgresql, schema: sql/orders.sql, memory: 1GiB, cpus: [0, 1], fsync: false, max-connections: 500}"), home).database
        assertThat(db).isEqualTo(DatabaseSpec("postgresql", "sql/orders.sql", 1L shl 30, listOf(0, 1), false, 500))
        assertThat(parse(suite("database: {memory: none, cpus: '2,0'}"), home).database).isEqualTo(DatabaseSpec(memoryBytes = null, cpus = listOf(0, 2)))
    }

    @Test
    fun `bad database keys are named at their line and column`(@TempDir home: Path) {
        val found = problems(
            """
            name: db
            apps: [{stack: tomcat}]
            profile: {cpus: 1, cpuset: [3]}
            endpoints: [{kind: noop}]
            database:
              engine: mysql
              schema: no/such.sql
              memory: 12 apples
              cpus: [3, 9]
              fsync: sometimes
              max-connections: 2
              pool: 10
            """, home,
        ).map { "${it.line}:${it.column} ${it.key}: ${it.message}" }
        assertThat(found).containsExactly(
            "6:11 database.engine: 'mysql' is not a database engine the lab starts",
            "7:11 database.schema: 'no/such.sql' is not a file",
            "8:11 database.memory: '12 apples' is not a size in 64MiB..1TiB",
            "9:10 database.cpus: CPU 3 is the app's (profile.cpuset): the database never runs on the app's CPUs",
            "9:13 database.cpus: '9' is not a CPU of this machine",
            "10:10 database.fsync: 'sometimes' is not true or false",
            "11:20 database.max-connections: '2' is not a whole number in 10..5000",
            "12:3 database.pool: is not a known key",
        )
    }

    @Test
    fun `a database named by an engine the lab does not start is refused`() {
        val p = problems(suite("database: mysql")).single()
        assertThat("${p.line}:${p.column} ${p.key}: ${p.message}").isEqualTo("5:11 database: 'mysql' is not a database engine the lab starts")
    }

    private fun own(database: String) = """
        name: own
        apps:
          - name: orders
            jar: orders.jar
            args: ["--server.port={port}", "--spring.datasource.url={db.jdbc-url}", "--spring.datasource.username={db.user}"]
            env: {DB_PASSWORD: "{db.password}", R2DBC: "{db.r2dbc-url}"}
        endpoints: [{kind: http, name: item, path: /items/1}]
        $database
    """

    @Test
    fun `an own app may name the database's placeholders when the suite has a database`() {
        val app = parse(own("database: postgresql")).apps.single()
        assertThat((app.source as AppSource.Jar).args).contains("--spring.datasource.url={db.jdbc-url}")
        val filled = AppSource.substitute("--url={db.jdbc-url} --port={port}", 8080, "127.0.0.1", mapOf("{db.jdbc-url}" to "jdbc:postgresql://127.0.0.1:5999/stackbench"))
        assertThat(filled).isEqualTo("--url=jdbc:postgresql://127.0.0.1:5999/stackbench --port=8080")
    }

    @Test
    fun `a placeholder without a database, or one the lab does not know, is named at its key`() {
        val without = problems(own("")).map { "${it.line}:${it.column} ${it.key}: ${it.message}" }
        assertThat(without).containsExactly(
            "5:11 apps[0].args: names {db.jdbc-url}, {db.user}, but the suite has no database: for the lab to start",
            "6:10 apps[0].env: names {db.password}, {db.r2dbc-url}, but the suite has no database: for the lab to start",
        )
        val unknown = problems(own("database: postgresql").replace("{db.user}", "{db.username}")).single()
        assertThat("${unknown.line}:${unknown.column} ${unknown.key}: ${unknown.message}")
            .isEqualTo("5:11 apps[0].args: {db.username} is not a database placeholder")
    }

    @Test
    fun `kind db sweeps strategies, ops, ids and db-delays into calls on the app's db paths`() {
        val suite = parse("""
            name: db
            apps: [{stack: tomcat}]
            endpoints: [{kind: db, strategies: [jdbc], op: [read, write], id: 7, db-delay: [1ms, 50ms]}]
            database: postgresql
        """)
        val calls = stackbench.runner.plan.Planner.calls(suite.endpoints.single())
        assertThat(calls.map { it.path }).containsExactly(
            "/db/jdbc?op=read&id=7&db-delay=1", "/db/jdbc?op=read&id=7&db-delay=50", "/db/jdbc?op=write&id=7&db-delay=1", "/db/jdbc?op=write&id=7&db-delay=50")
        assertThat(calls.first().label).isEqualTo("db-jdbc-read-id7-db-delay1")
        val defaults = stackbench.runner.plan.Planner.calls(parse(suite("database: postgresql").replace("{kind: noop}", "{kind: db, strategies: all}")).endpoints.single())
        assertThat(defaults.map { it.path }).containsExactly("/db/jdbc?op=read&id=1&db-delay=0", "/db/r2dbc?op=read&id=1&db-delay=0", "/db/jdbc-offload?op=read&id=1&db-delay=0")
    }

    @Test
    fun `a bad db endpoint, or one in a suite without a database, is named at its key`() {
        val found = problems("""
            name: db
            apps: [{stack: webflux}]
            endpoints:
              - {kind: db, strategies: [jdbc, jpa], op: delete, id: 0, db-delay: 90s}
        """).map { "${it.line}:${it.column} ${it.key}: ${it.message}" }
        assertThat(found).containsExactly(
            "4:12 endpoints[0].kind: 'db' queries the run's database, but the suite has no database:",
            "4:35 endpoints[0].strategies: 'jpa' is not a strategy of this endpoint",
            "4:45 endpoints[0].op: 'delete' is not read or write",
            "4:57 endpoints[0].id: '0' is not a whole number in 1..10000",
            "4:70 endpoints[0].db-delay: '90s' is outside 0..60000 ms",
        )
    }

    @Test
    fun `a database beside hosts other than this machine is refused at its key`() {
        val p = problems("""
            name: db
            apps: [{stack: tomcat}]
            endpoints: [{kind: noop}]
            hosts: [{name: server, kind: netns}]
            placement: {app: server}
            database: postgresql
        """).map { "${it.line}:${it.column} ${it.key}: ${it.message}" }
        assertThat(p).containsExactly("6:1 database: runs on this machine's loopback, which the roles on the suite's other hosts cannot reach")
    }
}
