package stackbench.runner.suite

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.yaml.SuiteException
import stackbench.runner.yaml.SuiteProblem

/** An app's `jdk:` in a suite: what it reads into, and every bad use named at its line. */
class JdkSuiteTest {
    private val parser = SuiteParser(MachineFacts(cpus = 2))

    private fun parse(apps: String) = parser.parse("name: j\napps:\n$apps\nendpoints: [{kind: noop}]", "suites/jdk.yaml")

    private fun problem(apps: String): SuiteProblem {
        val ps = (runCatching { parse(apps) }.exceptionOrNull() as? SuiteException)?.problems ?: error("expected the suite to be rejected")
        assertThat(ps).`as`(ps.joinToString(" / ") { it.render() }).hasSize(1)
        return ps.single()
    }

    @Test
    fun `a built-in app and an own jar name a JDK by its feature version or its home, relative to the suite's folder`() {
        val suite = parse(
            """
            |  - {name: t17, stack: tomcat, boot: "3.5", jdk: 17}
            |  - {name: t25v, stack: tomcat, boot: "3.5", jdk: 25, virtual-threads: true}
            |  - {name: mine, jar: app.jar, args: ["--port={port}"], jdk: ../jdks/jdk-21}
            |  - {name: plain, stack: tomcat}
            """.trimMargin(),
        )
        val byName = suite.apps.associateBy { it.name }
        assertThat(byName.getValue("t17").jdk).isEqualTo(JdkSpec.Feature(17))
        assertThat(byName.getValue("t25v").jdk).isEqualTo(JdkSpec.Feature(25))
        assertThat(byName.getValue("mine").jdk).isEqualTo(JdkSpec.Home("jdks/jdk-21"))
        assertThat(byName.getValue("plain").jdk).isNull()
    }

    @Test
    fun `a JDK that is neither a version nor a path is named at its line with what it may be`() {
        val p = problem("  - {name: t, stack: tomcat, jdk: temurin}")
        assertThat(p.render()).startsWith("suites/jdk.yaml:3:35: apps[0].jdk: 'temurin' is not a JDK")
        assertThat(p.render()).contains("a feature version (17, 21, 25) or the path of a JDK's home")
    }

    @Test
    fun `JDK 17 runs the Boot 3-5 apps, not the Boot 4-1 ones, and never virtual threads`() {
        val boot4 = problem("  - {name: t, stack: tomcat, jdk: 17}")
        assertThat(boot4.key).isEqualTo("apps[0].jdk")
        assertThat(boot4.render()).contains("JDK 17 cannot run tomcat on Spring Boot 4.1: its jar is built for JDK 21 and later").contains("boot: 3.5 runs on JDK 17+")
        val virtual = problem("  - {name: t, stack: tomcat, boot: \"3.5\", jdk: 17, virtual-threads: true}")
        assertThat(virtual.render()).contains("virtual threads need JDK 21 or later, not 17")
        assertThat(parse("  - {name: t, stack: undertow, jdk: 17}").apps.single().jdk).isEqualTo(JdkSpec.Feature(17))
    }

    @Test
    fun `a command or a url app has no JDK of the lab's to name`() {
        assertThat(problem("  - {name: c, command: [./server, \"{port}\"], jdk: 21}").render()).contains("apps[0].jdk: is for a JVM jar the lab starts (jar: PATH)")
        assertThat(problem("  - {name: u, url: \"http://127.0.0.1:9\", jdk: 21}").render()).contains("apps[0].jdk: is for an app the lab starts")
    }
}
