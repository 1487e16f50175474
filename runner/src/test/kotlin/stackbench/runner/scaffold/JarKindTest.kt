package stackbench.runner.scaffold

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path
import java.util.jar.Attributes
import java.util.jar.JarEntry
import java.util.jar.JarOutputStream
import java.util.jar.Manifest

class JarKindTest {
    private fun jar(dir: Path, name: String, attributes: Map<String, String>, entries: List<String> = emptyList()): Path {
        val manifest = Manifest().apply {
            mainAttributes[Attributes.Name.MANIFEST_VERSION] = "1.0"
            attributes.forEach { (k, v) -> mainAttributes[Attributes.Name(k)] = v }
        }
        val file = dir.resolve(name)
        JarOutputStream(Files.newOutputStream(file), manifest).use { out -> entries.forEach { out.putNextEntry(JarEntry(it)); out.closeEntry() } }
        return file
    }

    @Test
    fun `a Spring Boot jar by its manifest takes --server_port`(@TempDir dir: Path) {
        val facts = JarKind.inspect(jar(dir, "orders-1.4.2.jar", mapOf("Spring-Boot-Version" to "3.5.16", "Start-Class" to "com.example.Orders",
            "Main-Class" to "org.springframework.boot.loader.launch.JarLauncher")))
        assertThat(facts.framework).isEqualTo(Framework.SPRING_BOOT)
        assertThat(facts.evidence).contains("Spring-Boot-Version 3.5.16")
        assertThat(facts.framework.args).containsExactly("--server.port={port}")
    }

    @Test
    fun `a Quarkus jar by its main class, its name or its classes takes a system property`(@TempDir dir: Path) {
        val fast = JarKind.inspect(jar(dir, "quarkus-run.jar", mapOf("Main-Class" to "io.quarkus.bootstrap.runner.QuarkusEntryPoint")))
        assertThat(fast.framework).isEqualTo(Framework.QUARKUS)
        assertThat(fast.framework.jvmArgs).containsExactly("-Dquarkus.http.port={port}")
        val uber = JarKind.inspect(jar(dir, "app-runner.jar", mapOf("Main-Class" to "com.example.Main"), listOf("io/quarkus/runtime/Application.class")))
        assertThat(uber.framework).isEqualTo(Framework.QUARKUS)
    }

    @Test
    fun `Micronaut and Helidon by their classes or class path`() {
        assertThat(JarKind.classify("m.jar", emptyMap(), listOf("io/micronaut/runtime/Micronaut.class")).framework).isEqualTo(Framework.MICRONAUT)
        assertThat(JarKind.classify("h.jar", mapOf("Class-Path" to "libs/helidon-webserver-4.1.jar"), emptyList()).framework).isEqualTo(Framework.HELIDON)
        assertThat(Framework.MICRONAUT.jvmArgs).containsExactly("-Dmicronaut.server.port={port}")
        assertThat(Framework.HELIDON.jvmArgs).containsExactly("-Dserver.port={port}")
    }

    @Test
    fun `an unknown jar gets the PORT variable and says why`(@TempDir dir: Path) {
        val facts = JarKind.inspect(jar(dir, "wiremock-standalone-3.13.2.jar", mapOf("Main-Class" to "wiremock.Run"), listOf("com/github/tomakehurst/X.class")))
        assertThat(facts.framework).isEqualTo(Framework.UNKNOWN)
        assertThat(facts.framework.env).containsEntry("PORT", "{port}")
        assertThat(facts.evidence).contains("Main-Class wiremock.Run")
    }

    @Test
    fun `a missing path, a folder and a file that is not a jar are named`(@TempDir dir: Path) {
        assertThatThrownBy { JarKind.inspect(dir.resolve("nope.jar")) }.isInstanceOf(ScaffoldProblem::class.java).hasMessageContaining("nope.jar does not exist")
        assertThatThrownBy { JarKind.inspect(dir) }.hasMessageContaining("is not a file")
        val text = Files.writeString(dir.resolve("notes.jar"), "hello")
        assertThatThrownBy { JarKind.inspect(text) }.hasMessageContaining("notes.jar is not a jar")
    }

    @Test
    fun `names come from file names without their version`() {
        assertThat(JarKind.nameOf("orders-1.4.2-SNAPSHOT.jar")).isEqualTo("orders")
        assertThat(JarKind.nameOf("wiremock-standalone-3.13.2.jar")).isEqualTo("wiremock-standalone")
        assertThat(JarKind.nameOf("quarkus-run.jar")).isEqualTo("quarkus-run")
        assertThat(JarKind.nameOf("my server")).isEqualTo("my-server")
    }
}
