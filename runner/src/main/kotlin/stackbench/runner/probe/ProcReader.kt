package stackbench.runner.probe

import oshi.software.os.OSProcess
import oshi.software.os.OperatingSystem
import oshi.util.FileUtil
import java.nio.file.Files
import java.nio.file.Path

/** What one reading of a process gives. */
data class ProcessReading(val cpuMs: Double, val rssBytes: Long, val threads: Int, val perThreadSwitches: Map<Int, Pair<Long, Long>>)

/**
 * Reads a process through OSHI (which reads /proc): CPU time, resident memory, threads; and each thread's
 * voluntary and involuntary context switches from /proc/PID/task/TID/status, parsed by OSHI's own reader.
 */
class ProcReader(private val os: OperatingSystem, private val pid: Int) {
    private var process: OSProcess? = null

    fun read(withThreads: Boolean = true): ProcessReading? {
        val p = process ?: os.getProcess(pid)?.also { process = it } ?: return null
        if (!p.updateAttributes()) return null
        val switches = if (withThreads) threadSwitches() else emptyMap()
        return ProcessReading((p.kernelTime + p.userTime).toDouble(), p.residentMemory, p.threadCount, switches)
    }

    private fun threadSwitches(): Map<Int, Pair<Long, Long>> {
        val taskDir = Path.of("/proc/$pid/task")
        val tids = runCatching { Files.list(taskDir).use { s -> s.map { it.fileName.toString().toIntOrNull() }.toList().filterNotNull() } }
            .getOrDefault(emptyList())
        val result = HashMap<Int, Pair<Long, Long>>(tids.size * 2)
        for (tid in tids) {
            val status = FileUtil.getKeyValueMapFromFile("/proc/$pid/task/$tid/status", ":")
            val v = status["voluntary_ctxt_switches"]?.trim()?.toLongOrNull() ?: continue
            val n = status["nonvoluntary_ctxt_switches"]?.trim()?.toLongOrNull() ?: continue
            result[tid] = v to n
        }
        return result
    }
}
