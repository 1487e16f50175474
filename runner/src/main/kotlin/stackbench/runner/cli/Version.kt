package stackbench.runner.cli

import stackbench.runner.env.EnvironmentProbe
import java.nio.file.Path
import java.util.Properties

/**
 * What `stackbench --version` prints: the runner's version (from its jar's manifest; "a development build" when it
 * runs from classes) and the commit it was made from. In a checkout, the checkout's commit, with `+` when that tree
 * has uncommitted changes, as every run records it (`environment.gitCommit`, `gitDirty`); from an install, the commit
 * the build baked into the runner's jar ([Build]), since the install has no git of its own.
 */
object Version {
    fun line(home: Path = Home.path, installed: Boolean = Home.installed): String {
        val version = Version::class.java.`package`?.implementationVersion ?: "a development build"
        if (installed) {
            val built = Build.info
            return "stackbench $version, " + if (built == null) "an install without the commit it was built from" else
                "commit ${built.commit.take(12)}${if (built.dirty) "+ (built with uncommitted changes)" else ""} (an install: $home)"
        }
        val commit = EnvironmentProbe.gitCommit(home)
        val dirty = EnvironmentProbe.gitStatus(home)?.isNotEmpty() == true
        val source = if (commit == null) "not a git checkout: $home" else "commit ${commit.take(12)}${if (dirty) "+ (uncommitted changes)" else ""}"
        return "stackbench $version, $source"
    }
}

/**
 * The commit the runner's jar was built from: written into its classes at build time (`stackbench/build.properties`,
 * by git-commit-id-maven-plugin in runner/pom.xml), so an install knows what it runs without a checkout.
 */
object Build {
    data class Info(val commit: String, val dirty: Boolean)

    const val RESOURCE = "stackbench/build.properties"

    val info: Info? by lazy { read(Build::class.java.classLoader.getResourceAsStream(RESOURCE)?.use { s -> Properties().also { it.load(s) } }) }

    /** [info] when this runner is an install (which has no git of its own, so its runs record the commit baked in); null in a checkout. */
    val ofInstall: Info? get() = info?.takeIf { Home.installed }

    /** The commit a run made now records ([LabRun]): an install's baked-in one, else the checkout's. */
    fun runCommit(): String? = ofInstall?.commit ?: EnvironmentProbe.gitCommit(Home.path)

    /** The build's commit from [properties] (git.commit.id.full, git.dirty); null when it has none (built outside git). */
    fun read(properties: Properties?): Info? {
        if (properties == null) return null
        val commit = (properties.getProperty("git.commit.id.full") ?: properties.getProperty("git.commit.id"))?.trim()?.takeIf { it.matches(Regex("[0-9a-f]{7,64}")) } ?: return null
        return Info(commit, properties.getProperty("git.dirty")?.trim() == "true")
    }
}
