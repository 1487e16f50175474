package stackbench.runner.cli

import stackbench.runner.env.EnvironmentProbe
import java.nio.file.Path

/**
 * What `stackbench --version` prints: the runner's version (from its jar's manifest; "a development build" when it
 * runs from classes) and the commit of the checkout it runs from, with `+` when that tree has uncommitted changes, as
 * every run records it (`environment.gitCommit`, `gitDirty`).
 */
object Version {
    fun line(home: Path = Home.path): String {
        val version = Version::class.java.`package`?.implementationVersion ?: "a development build"
        val commit = EnvironmentProbe.gitCommit(home)
        val dirty = EnvironmentProbe.gitStatus(home)?.isNotEmpty() == true
        val source = if (commit == null) "not a git checkout: $home" else "commit ${commit.take(12)}${if (dirty) "+ (uncommitted changes)" else ""}"
        return "stackbench $version, $source"
    }
}
