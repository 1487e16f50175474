package stackbench.runner.host

import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.TimeUnit

/**
 * Ties a child's life to the runner's: each command starts through `setpriv --pdeathsig KILL` (util-linux),
 * which asks the kernel (prctl PR_SET_PDEATHSIG, not reachable from the JVM) to SIGKILL the child the
 * moment its parent dies, however it dies, SIGKILL included. setpriv, the cgroup-joining shell and taskset
 * all exec, so the child keeps one pid and the signal setting reaches the app's JVM or the load generator.
 *
 * The kernel sends the signal when the *thread* that started the child ends: every child is started from
 * the runner's main thread, which lives as long as the run. Where setpriv is missing (or too old for
 * --pdeathsig), commands run as they are and the run's [Watchdog] alone ends what is left.
 */
object ParentDeath {
    /** setpriv, when it can set a parent-death signal here; null otherwise. */
    val setpriv: String? by lazy {
        listOf("/usr/bin/setpriv", "/bin/setpriv").firstOrNull { Files.isExecutable(Path.of(it)) }?.takeIf { works(it) }
    }

    fun wrap(command: List<String>, setpriv: String? = this.setpriv): List<String> =
        if (setpriv == null) command else listOf(setpriv, "--pdeathsig", "KILL", "--") + command

    private fun works(setpriv: String): Boolean = runCatching {
        val p = ProcessBuilder(setpriv, "--pdeathsig", "KILL", "--", "true").redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD).start()
        p.waitFor(5, TimeUnit.SECONDS) && p.exitValue() == 0
    }.getOrDefault(false)
}
