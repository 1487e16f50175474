package stackbench.runner.testing

import org.assertj.core.api.Assertions.assertThat
import java.nio.file.Files
import java.nio.file.Path
import java.util.jar.Attributes
import java.util.jar.JarEntry
import java.util.jar.JarOutputStream
import java.util.jar.Manifest
import javax.tools.ToolProvider

/** The test resource own-app/TinyServer.java compiled and packed into `tiny.jar` in [dir]: a service none of the lab's apps. */
object TinyJar {
    fun build(dir: Path): Path {
        val classes = Files.createDirectories(dir.resolve("classes"))
        val source = Path.of(TinyJar::class.java.getResource("/own-app/TinyServer.java")!!.toURI())
        val compiled = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-d", classes.toString(), source.toString())
        assertThat(compiled).`as`("javac of TinyServer.java").isZero()
        val tiny = dir.resolve("tiny.jar")
        val manifest = Manifest().apply {
            mainAttributes[Attributes.Name.MANIFEST_VERSION] = "1.0"
            mainAttributes[Attributes.Name.MAIN_CLASS] = "TinyServer"
        }
        JarOutputStream(Files.newOutputStream(tiny), manifest).use { out ->
            Files.list(classes).use { files ->
                files.forEach { f -> out.putNextEntry(JarEntry(f.fileName.toString())); Files.copy(f, out); out.closeEntry() }
            }
        }
        return tiny
    }
}
