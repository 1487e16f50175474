package stackbench.runner.scaffold

import java.nio.file.Files
import java.nio.file.Path
import java.util.jar.Attributes
import java.util.jar.Manifest
import java.util.zip.ZipException
import java.util.zip.ZipFile

/**
 * The JVM frameworks `init` knows how to give a port to, each by the key docs/own-app.md names: Spring Boot's
 * `--server.port` (an argument), Quarkus's, Micronaut's and Helidon's system properties (JVM arguments); any other jar
 * gets the environment variable `PORT`, which many services read and the rest ignore (`init --port-arg` says how).
 */
enum class Framework(val id: String, val shown: String, val args: List<String>, val jvmArgs: List<String>, val env: Map<String, String>) {
    SPRING_BOOT("spring-boot", "Spring Boot", listOf("--server.port={port}"), emptyList(), emptyMap()),
    QUARKUS("quarkus", "Quarkus", emptyList(), listOf("-Dquarkus.http.port={port}"), emptyMap()),
    MICRONAUT("micronaut", "Micronaut", emptyList(), listOf("-Dmicronaut.server.port={port}"), emptyMap()),
    HELIDON("helidon", "Helidon", emptyList(), listOf("-Dserver.port={port}"), emptyMap()),
    UNKNOWN("unknown", "a jar of no framework init knows", emptyList(), emptyList(), mapOf("PORT" to "{port}")),
}

/** What `init` read of a jar: its framework and why it says so (the manifest attribute or the classes that told). */
data class JarFacts(val framework: Framework, val evidence: String)

/** Reads a jar's manifest and entry names to tell its framework. Pure: reads the file, starts and writes nothing. */
object JarKind {
    /** The jar at [jar], or a [ScaffoldProblem] naming what is wrong with it (missing, a folder, not a jar). */
    fun inspect(jar: Path): JarFacts {
        if (!Files.exists(jar)) throw ScaffoldProblem("$jar does not exist")
        if (!Files.isRegularFile(jar)) throw ScaffoldProblem("$jar is not a file")
        val (manifest, names) = try {
            ZipFile(jar.toFile()).use { zip ->
                val m = zip.getEntry("META-INF/MANIFEST.MF")?.let { e -> zip.getInputStream(e).use { Manifest(it) } }
                m to zip.entries().asSequence().map { it.name }.toList()
            }
        } catch (e: ZipException) {
            throw ScaffoldProblem("$jar is not a jar (not a zip file: ${e.message})")
        }
        return classify(jar.fileName.toString(), manifest?.mainAttributes?.let(::attributes).orEmpty(), names)
    }

    private fun attributes(a: Attributes): Map<String, String> = a.entries.associate { (k, v) -> k.toString() to v.toString() }

    /** The framework of a jar named [fileName] with the manifest [main] attributes and the entries [names]. */
    fun classify(fileName: String, main: Map<String, String>, names: Collection<String>): JarFacts {
        main["Spring-Boot-Version"]?.let { return JarFacts(Framework.SPRING_BOOT, "its manifest's Spring-Boot-Version $it") }
        main["Start-Class"]?.let { return JarFacts(Framework.SPRING_BOOT, "its manifest's Start-Class $it") }
        val mainClass = main["Main-Class"].orEmpty()
        val classPath = main["Class-Path"].orEmpty()
        fun has(prefix: String) = names.any { it.startsWith(prefix) }
        return when {
            fileName == "quarkus-run.jar" || mainClass.startsWith("io.quarkus.") -> JarFacts(Framework.QUARKUS, "its Main-Class $mainClass".takeIf { mainClass.isNotEmpty() } ?: "its name, quarkus-run.jar")
            has("io/quarkus/") -> JarFacts(Framework.QUARKUS, "its io/quarkus classes")
            has("org/springframework/boot/loader/") -> JarFacts(Framework.SPRING_BOOT, "Spring Boot's loader classes")
            has("io/micronaut/") || mainClass.startsWith("io.micronaut.") -> JarFacts(Framework.MICRONAUT, "its io/micronaut classes")
            has("io/helidon/") || classPath.contains("helidon") || mainClass.startsWith("io.helidon.") ->
                JarFacts(Framework.HELIDON, if (classPath.contains("helidon")) "its manifest's Class-Path (helidon libraries)" else "its io/helidon classes")
            else -> JarFacts(Framework.UNKNOWN, "no Spring Boot, Quarkus, Micronaut or Helidon mark in its manifest or classes" +
                (if (mainClass.isNotEmpty()) " (Main-Class $mainClass)" else ""))
        }
    }

    /** A suite and app name from a jar's or program's file name: `orders-1.4.2-SNAPSHOT.jar` is `orders`. */
    fun nameOf(fileName: String): String {
        val base = fileName.substringAfterLast('/').removeSuffix(".jar")
        val unversioned = base.replace(Regex("""[-_.]v?\d+(\.\d+)*([-.][A-Za-z0-9.]+)*$"""), "")
        return unversioned.ifEmpty { base }.replace(Regex("[^A-Za-z0-9._-]"), "-").trim('-', '.').ifEmpty { "service" }
    }
}

/** Input `init` cannot work from: the message names what is wrong (exit 2). */
class ScaffoldProblem(message: String) : RuntimeException(message)
