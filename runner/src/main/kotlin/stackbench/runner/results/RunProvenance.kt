package stackbench.runner.results

/**
 * Where a run's figures come from, in one line that travels with every chart drawn from them (a chart copied out of a
 * report still says it): the suite, the commit (`+` when the tree had uncommitted changes), the apps' JDK, the CPU
 * model and the day. Pure.
 */
object RunProvenance {
    fun of(result: RunResult): String {
        val e = result.environment
        return listOfNotNull(
            "stackbench · ${result.run.suite}",
            e.gitCommit?.let { "commit ${it.take(10)}${if (e.gitDirty == true) "+" else ""}" },
            "JDK ${jdkVersion(e.appJdk)}",
            e.cpuModel,
            result.run.startedAt.take(10),
        ).joinToString(" · ")
    }

    /** A JDK's version line shortened to its version (`openjdk version "25.0.3" 2026-04-21 LTS` → `25.0.3`); the line itself when it names none. */
    fun jdkVersion(line: String): String = Regex("\"([^\"]+)\"").find(line)?.groupValues?.get(1) ?: line
}
