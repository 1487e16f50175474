package stackbench.apps.endpoints.info.servers

import java.net.URL
import java.util.jar.Manifest

/** The version in the manifest of the jar a class comes from, for libraries that have no version API. */
object JarVersions {
    fun of(type: Class<*>): String? {
        val resource = type.getResource("${type.simpleName}.class") ?: return null
        if (resource.protocol != "jar") return null
        return try {
            @Suppress("DEPRECATION")
            val manifest = URL(resource, "/META-INF/MANIFEST.MF").openStream().use { Manifest(it) }
            val attributes = manifest.mainAttributes
            (attributes.getValue("Implementation-Version") ?: attributes.getValue("Bundle-Version"))?.removeSuffix(".RELEASE")
        } catch (_: Exception) {
            null
        }
    }
}
