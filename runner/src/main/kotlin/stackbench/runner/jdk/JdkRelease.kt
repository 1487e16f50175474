package stackbench.runner.jdk

/**
 * What a JDK's `release` file says of it (`JAVA_VERSION="21.0.8"`, `IMPLEMENTOR="Eclipse Adoptium"`, `MODULES="java.base
 * ..."`): read without starting it, so finding the installed JDKs costs no JVM start. A pure parse.
 */
data class JdkRelease(
    /** JAVA_VERSION, e.g. `17.0.17` or `25.0.1`. */
    val version: String,
    /** The feature version: the first number of [version] (`1.8.0` counts as 8). */
    val feature: Int,
    val implementor: String?,
    /** JAVA_RUNTIME_VERSION where the file gives it (e.g. `21.0.8+9-LTS`). */
    val runtimeVersion: String?,
    /** The modules of its image; empty when the file does not list them. */
    val modules: List<String>,
) {
    companion object {
        /** The file's text as a release, or null when it names no JAVA_VERSION the lab can read. */
        fun parse(text: String): JdkRelease? {
            val values = text.lines().mapNotNull { line ->
                val at = line.indexOf('=')
                if (at <= 0) null else line.substring(0, at).trim() to line.substring(at + 1).trim().removeSurrounding("\"")
            }.toMap()
            val version = values["JAVA_VERSION"]?.takeIf { it.isNotBlank() } ?: return null
            val numbers = version.split('.', '-', '+', '_').mapNotNull { it.toIntOrNull() }
            val feature = (if (numbers.firstOrNull() == 1) numbers.getOrNull(1) else numbers.firstOrNull()) ?: return null
            return JdkRelease(version, feature, values["IMPLEMENTOR"]?.takeIf { it.isNotBlank() }, values["JAVA_RUNTIME_VERSION"]?.takeIf { it.isNotBlank() },
                values["MODULES"]?.split(' ')?.filter { it.isNotBlank() } ?: emptyList())
        }
    }
}
