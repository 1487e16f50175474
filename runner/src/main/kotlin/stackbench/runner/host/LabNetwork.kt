package stackbench.runner.host

import java.util.concurrent.TimeUnit

/**
 * The run's namespace network, built from its [NetworkPlan] and removed by [close] (idempotent): the bridge, the
 * namespaces, their links and qdiscs. Whether the round trip is emulated by netem or by relays is decided once,
 * by trying netem on the first delayed link ([netem]).
 */
class LabNetwork private constructor(val plan: NetworkPlan, val netem: Boolean) : AutoCloseable {
    @Volatile private var closed = false

    override fun close() {
        if (closed) return
        closed = true
        plan.teardown().forEach { Commands.run(it) }
    }

    companion object {
        /** Builds [plan]'s network; if any step fails, removes what was made and throws naming the step. */
        fun open(plan: NetworkPlan): LabNetwork {
            try {
                plan.setup().forEach { Commands.check(it) }
                val probe = plan.links.firstOrNull { it.rtt != null }
                val netem = probe != null && Commands.run(listOf("tc", "qdisc", "add", "dev", probe.outer, "root", "netem", "delay", "1ms")).first == 0
                if (netem) Commands.check(listOf("tc", "qdisc", "del", "dev", probe!!.outer, "root"))
                plan.shaping(netem).forEach { Commands.check(it) }
                return LabNetwork(plan, netem)
            } catch (e: Exception) {
                plan.teardown().forEach { Commands.run(it) }
                throw e
            }
        }

        /** Removes the namespaces and links that runs no longer alive left (by their tag); returns what it removed. */
        fun sweep(): Leftovers {
            val left = Leftovers.of(Commands.run(listOf("ip", "netns", "list")).second, Commands.run(listOf("ip", "-o", "link")).second) { pid ->
                ProcessHandle.of(pid).map { it.isAlive }.orElse(false)
            }
            left.commands().forEach { Commands.run(it) }
            return left
        }

        /** The 10.77.K.0/24 subnets already in use on this machine. */
        fun takenSubnets(): Set<Int> = NetworkPlan.subnetsIn(Commands.run(listOf("ip", "-4", "-o", "addr")).second)
    }
}

/** Runs a short system command (`ip`, `tc`) to its end and returns its exit status and output. */
object Commands {
    fun run(command: List<String>, timeoutSeconds: Long = 20): Pair<Int, String> {
        val p = ProcessBuilder(command).redirectErrorStream(true).start()
        val out = p.inputStream.bufferedReader().readText()
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly()
            return -1 to out
        }
        return p.exitValue() to out
    }

    /** Runs [command]; a failure is an exception naming the command and its output. */
    fun check(command: List<String>) {
        val (status, out) = run(command)
        check(status == 0) { "'${command.joinToString(" ")}' failed (status $status): ${out.trim()}" }
    }
}
