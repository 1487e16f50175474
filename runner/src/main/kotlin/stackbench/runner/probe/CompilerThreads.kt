package stackbench.runner.probe

import oshi.software.os.OperatingSystem

/**
 * The CPU time of a JVM's JIT compiler threads (HotSpot's `C1 CompilerThread*` and `C2 CompilerThread*`), read from
 * the OS (OSHI, /proc/PID/task): what compilation costs the CPU the app shares with them. The JVM's own
 * CompilationMXBean counts the compilers' elapsed time instead, which on a starved CPU includes their waits for it
 * (seen: more compilation ms than the whole process's CPU ms in a slice), so it cannot say what share of the CPU
 * compilation took. Resolution: the kernel's clock tick (10 ms).
 */
class CompilerThreads(private val os: OperatingSystem, private val pid: Int) {

    /** Milliseconds of CPU the compiler threads have used so far; null when the process cannot be read. */
    fun cpuMs(): Double? {
        val process = os.getProcess(pid) ?: return null
        val threads = process.threadDetails
        if (threads.isEmpty()) return null
        return threads.filter { isCompiler(it.name) }.sumOf { (it.kernelTime + it.userTime).toDouble() }
    }

    companion object {
        /** Thread names are cut to 15 characters in /proc: "C2 CompilerThre". */
        fun isCompiler(name: String?): Boolean = name != null && (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre"))
    }
}
