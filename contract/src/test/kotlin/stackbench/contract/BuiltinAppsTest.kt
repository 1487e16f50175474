package stackbench.contract

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import java.nio.file.Files
import java.nio.file.Path

/** The one list of built-in apps: each entry is a module the build makes, its jar named as the module's pom names it. */
class BuiltinAppsTest {
    private val root: Path = generateSequence(Path.of("").toAbsolutePath()) { it.parent }.first { Files.isRegularFile(it.resolve("mvnw")) }

    @Test
    fun `every listed app's jar is the final name of the module beside it, and every app module (one that names its jar) is listed`() {
        val listed = BuiltinApps.ALL.map { it.jar }
        assertThat(listed).isNotEmpty().doesNotHaveDuplicates()
        for (e in BuiltinApps.ALL) {
            val module = root.resolve(e.jar).parent.parent
            val pom = Files.readString(module.resolve("pom.xml"))
            assertThat(pom).`as`("${e.jar}: its module's pom").contains("<finalName>${Path.of(e.jar).fileName.toString().removeSuffix(".jar")}</finalName>")
            assertThat(e.model).isIn("servlet", "reactive")
        }
        val modules = listOf("apps/boot4", "apps/boot3").flatMap { line ->
            Files.list(root.resolve(line)).use { s -> s.filter { Files.isRegularFile(it.resolve("pom.xml")) && "<finalName>" in Files.readString(it.resolve("pom.xml")) }.map { root.relativize(it).toString() }.toList() }
        }
        assertThat(listed.map { it.substringBefore("/target/") }).containsExactlyInAnyOrderElementsOf(modules)
    }

    @Test
    fun `a malformed line is named with its line number`() {
        assertThatThrownBy { BuiltinApps.parse("# head\ntomcat\t4.1\tservlet\n") }
            .hasMessageContaining("builtin-apps.tsv:2: expected 9 tab-separated fields (id, boot, model, server, jar, pool, pool units, virtual pool, virtual pool units), got 3")
    }
}
