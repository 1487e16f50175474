package stackbench.runner.suite

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.yaml.SuiteException
import java.net.URI

/** `${env:NAME}`: found, checked, put in only where sent, and written back wherever it was echoed. */
class SecretsTest {
    private val env = mapOf("TOKEN" to "s3cr3t", "KEY" to "a/b+c d", "EMPTY" to "")

    @Test
    fun `the names of a text, in order, in either form`() {
        assertThat(Secrets.names("Bearer \${env:TOKEN} and \${env:KEY}, again \${env:TOKEN}")).containsExactly("TOKEN", "KEY")
        assertThat(Secrets.names("/q?key=%24%7Benv:KEY%7D")).containsExactly("KEY")
        assertThat(Secrets.names("no placeholder: \${TOKEN}, {env:TOKEN}, \$env:TOKEN")).isEmpty()
    }

    @Test
    fun `a variable not set, an empty one and a malformed placeholder are problems naming them`() {
        assertThat(Secrets.problems("\${env:TOKEN}", env)).isEmpty()
        assertThat(Secrets.problems("\${env:MISSING}", env)).containsExactly("\${env:MISSING}: the environment variable MISSING is not set")
        assertThat(Secrets.problems("\${env:EMPTY}", env)).containsExactly("\${env:EMPTY}: the environment variable EMPTY is empty")
        assertThat(Secrets.problems("\${env:1BAD}", env).single()).contains("'\${env:1BAD}' is not a placeholder")
        assertThat(Secrets.problems("\${env:TOKEN", env).single()).contains("is not a placeholder")
    }

    @Test
    fun `expand puts each value in, percent-encoded inside a URI`() {
        assertThat(Secrets.expand("Bearer \${env:TOKEN}", env)).isEqualTo("Bearer s3cr3t")
        val uri = URI("http://127.0.0.1:8080" + Secrets.uriSafe("/q?key=\${env:KEY}&t=\${env:TOKEN}"))
        assertThat(uri.toString()).isEqualTo("http://127.0.0.1:8080/q?key=%24%7Benv:KEY%7D&t=%24%7Benv:TOKEN%7D")
        val sent = URI(Secrets.expand(uri.toString(), env))
        assertThat(sent.rawQuery).isEqualTo("key=a%2Fb%2Bc%20d&t=s3cr3t")
        assertThat(sent.query).isEqualTo("key=a/b+c d&t=s3cr3t")
        assertThat(Secrets.expand("\${env:MISSING} stays", env)).isEqualTo("\${env:MISSING} stays")
        assertThat(Secrets.expand("\$1 and \\ are not group references: \${env:TOKEN}", mapOf("TOKEN" to "\$0\\x")))
            .isEqualTo("\$1 and \\ are not group references: \$0\\x")
    }

    @Test
    fun `redact writes every value back as its placeholder, raw or encoded`() {
        val echoed = "GET /q?key=a%2Fb%2Bc%20d Authorization: Bearer s3cr3t (key a/b+c d)"
        assertThat(Secrets.redact(echoed, listOf("TOKEN", "KEY"), env))
            .isEqualTo("GET /q?key=%24%7Benv:KEY%7D Authorization: Bearer \${env:TOKEN} (key \${env:KEY})")
        assertThat(Secrets.redact(echoed, emptyList(), env)).isEqualTo(echoed)
    }

    @Test
    fun `a script expression reads each variable itself and holds no value`() {
        val lua = Secrets.expression("Bearer \${env:TOKEN}!", { "\"$it\"" }, { "os.getenv(\"$it\")" }, " .. ")
        assertThat(lua).isEqualTo("\"Bearer \" .. os.getenv(\"TOKEN\") .. \"!\"")
        val js = Secrets.expression("http://h/q?key=%24%7Benv:KEY%7D", { "\"$it\"" }, { "__ENV[\"$it\"]" }, " + ") { "encodeURIComponent($it)" }
        assertThat(js).isEqualTo("\"http://h/q?key=\" + encodeURIComponent(__ENV[\"KEY\"])")
        assertThat(Secrets.expression("plain", { "'$it'" }, { it }, " + ")).isEqualTo("'plain'")
        assertThat(Secrets.expression("", { "'$it'" }, { it }, " + ")).isEqualTo("''")
    }

    @Test
    fun `a suite names each missing variable at its line and key, and lists the ones it uses`() {
        val yaml = """
            name: s
            apps: [{name: t, stack: tomcat}]
            endpoints:
              - kind: http
                name: orders
                path: /orders?key=${'$'}{env:KEY}
                headers: {Authorization: "Bearer ${'$'}{env:NOPE}"}
            load: {driver: wrk}
            # a comment naming ${'$'}{env:IN_A_COMMENT} is not a value
        """.trimIndent()
        val problems = (runCatching { SuiteParser(MachineFacts(2), env = env).parse(yaml, "suites/s.yaml") }.exceptionOrNull() as SuiteException).problems
        assertThat(problems).hasSize(1)
        assertThat(problems.single().line).isEqualTo(7)
        assertThat(problems.single().key).isEqualTo("endpoints[0].headers.Authorization")
        assertThat(problems.single().message).contains("NOPE is not set")
        val suite = SuiteParser(MachineFacts(2), env = env + ("NOPE" to "x")).parse(yaml, "suites/s.yaml")
        assertThat(suite.secrets).containsExactly("KEY", "NOPE")
        val endpoint = suite.endpoints.single() as EndpointSpec.Http
        assertThat(endpoint.spec.headers).containsEntry("Authorization", "Bearer \${env:NOPE}")
    }
}
