package stackbench.runner.suite

import stackbench.runner.yaml.Problems
import stackbench.runner.yaml.Units
import stackbench.runner.yaml.YamlMap

/** Reads a suite's `profile:` against what this machine has ([machine]). */
internal class ProfileReader(private val machine: MachineFacts) {
    /** The profile of a suite that names none: the defaults, or no limits at all beside a url: app, which nothing limits. */
    fun default(urlApps: List<String>) =
        if (urlApps.isNotEmpty()) ResourceProfile(null, emptyList(), null, Defaults.HEAP_PERCENT)
        else ResourceProfile(Defaults.CPUS.coerceAtMost(machine.cpus.toDouble()), emptyList(), Defaults.MEMORY_BYTES, Defaults.HEAP_PERCENT)

    /**
     * Reads `profile:`. In a suite with a url: app ([urlApps]) the profile limits nothing: `cpus` and `memory` default
     * to `none`, and a CPU quota, a CPU set or a memory limit is refused at its key, naming the url: apps. The one profile
     * would give the other apps limits the url: app cannot have, and the lab cannot limit a service it did not start.
     */
    fun read(m: YamlMap, problems: Problems, urlApps: List<String>): ResourceProfile {
        val cpusNode = m.scalar("cpus")
        var cpus: Double? = if (urlApps.isEmpty()) Defaults.CPUS else null
        if (cpusNode != null) {
            cpus = if (cpusNode.value == "none") null else Units.number(cpusNode.value)
            if (cpusNode.value != "none" && (cpus == null || cpus < Units.MIN_CPUS)) {
                problems.at(cpusNode, m.qualify("cpus"), "'${cpusNode.value}' is not a number of CPUs of at least ${Units.MIN_CPUS}",
                    "the kernel's smallest CPU quota is 1 ms per 100 ms period (0.01 CPU); e.g. cpus: 1, cpus: 0.5, or cpus: none for no quota")
                cpus = null
            } else if (cpus != null && cpus > machine.cpus) {
                problems.at(cpusNode, m.qualify("cpus"), "asks for $cpus CPUs but this machine has ${machine.cpus}")
            }
        }
        val cpuset = m.scalars("cpuset")?.flatMap { node ->
            node.value.split(',').mapNotNull { part ->
                val id = part.trim().toIntOrNull()
                if (id == null || id < 0 || id >= machine.cpus) {
                    null.also { problems.at(node, m.qualify("cpuset"), "'${part.trim()}' is not a CPU of this machine", "CPUs here are 0..${machine.cpus - 1}") }
                } else id
            }
        }?.distinct()?.sorted() ?: emptyList()
        if (cpuset.size >= machine.cpus && cpuset.isNotEmpty()) {
            problems.at(m.valueNode("cpuset"), m.qualify("cpuset"), "pins the app to every CPU, leaving none for the load generator",
                "leave at least one CPU out, e.g. cpuset: [${machine.cpus - 1}]")
        }
        val memNode = m.scalar("memory")
        var memory: Long? = if (urlApps.isEmpty()) Defaults.MEMORY_BYTES else null
        if (memNode != null) {
            memory = if (memNode.value == "none") null else Units.size(memNode.value)
            if (memNode.value != "none" && (memory == null || memory < Units.MIN_MEMORY || memory > Units.MAX_MEMORY)) {
                problems.at(memNode, m.qualify("memory"), "'${memNode.value}' is not a size in 64MiB..1TiB", Units.SIZE_HINT)
            }
        }
        val heapNode = m.scalar("heap")
        var heap = Defaults.HEAP_PERCENT
        if (heapNode != null) {
            val p = Units.percent(heapNode.value)
            if (p == null || p < 10 || p > 95) problems.at(heapNode, m.qualify("heap"), "'${heapNode.value}' is not a share of memory in 10%..95%", Units.PERCENT_HINT)
            else heap = p.toInt()
        }
        val startNode = m.scalar("start-cpus")
        val startOnAllCpus = when (startNode?.value) {
            null, "limited" -> false
            "all" -> true
            else -> false.also {
                problems.at(startNode, m.qualify("start-cpus"), "'${startNode.value}' is not a way to start the app",
                    "limited (the default: the CPU limits hold from the start) or all (every CPU until the app is healthy, then its limits; for suites that do not measure start-up)")
            }
        }
        if (urlApps.isNotEmpty()) {
            val named = urlApps.joinToString { "apps.$it" }
            val limits = listOfNotNull(
                cpusNode?.takeIf { it.value != "none" }?.let { "cpus" to "a CPU quota" },
                ("cpuset" to "a CPU set").takeIf { cpuset.isNotEmpty() },
                memNode?.takeIf { it.value != "none" }?.let { "memory" to "a memory limit" },
            )
            for ((key, what) in limits) {
                problems.at(m.valueNode(key), m.qualify(key), "gives $what, but $named is a url: app: a service already running elsewhere, which the lab " +
                    "cannot limit, pin or isolate", "profile: {cpus: none} for a suite with a url: app (no cpuset, no memory); limit a started app in a suite of its own")
            }
        }
        m.finish()
        return ResourceProfile(cpus, cpuset, memory, heap, startOnAllCpus)
    }
}
