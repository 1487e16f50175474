package stackbench.runner.probe

import java.nio.file.Files
import java.nio.file.Path

/**
 * Answers counted from outside an app that keeps no counter of its own (an own jar, any command): the write system
 * calls of its process (`syscw` in /proc/PID/io, every thread's), divided by the writes one answer takes. A server
 * writes each answer with one or a few calls (headers and body together or apart); [writesPerAnswer] is measured on
 * the app itself, on sequential requests before any load ([calibrate]), so a server that also logs every request is
 * counted right. What else the process writes meanwhile (a GC log line, a timer's log) counts as answers: a few per
 * second against hundreds or thousands, which moves a warm-up's rate by well under a percent. The measured window's
 * figures never come from here: they are the load generator's.
 */
class AnswerCounter(private val pid: Long, private val proc: Path = Path.of("/proc")) {
    /** Write calls per answer, from [calibrate]; null until then (then [read] gives nothing). */
    @Volatile var writesPerAnswer: Double? = null
        private set

    /** The process's write system calls so far; null when /proc does not show them (another machine, the process gone). */
    fun writes(): Long? = runCatching {
        Files.readAllLines(proc.resolve("$pid/io")).firstOrNull { it.startsWith("syscw:") }?.substringAfter(':')?.trim()?.toLong()
    }.getOrNull()

    /** The process's CPU time so far (user + system, every thread), nanoseconds; null when unreadable. */
    fun cpuNanos(): Long? = runCatching {
        val stat = Files.readString(proc.resolve("$pid/stat"))
        // the command name may hold spaces and parentheses: fields count from after its last ')'
        val fields = stat.substringAfterLast(')').trim().split(' ')
        (fields[11].toLong() + fields[12].toLong()) * (1_000_000_000L / CLOCK_TICKS)
    }.getOrNull()

    /**
     * Measures the writes per answer over [answers] sequential requests sent by [send]; returns it, or null when the
     * writes cannot be read or moved by less than one per answer (a server that batches answers: no count is honest).
     */
    fun calibrate(answers: Int, send: () -> Unit): Double? {
        val before = writes() ?: return null
        repeat(answers) { send() }
        val after = writes() ?: return null
        val perAnswer = (after - before).toDouble() / answers
        writesPerAnswer = perAnswer.takeIf { it >= 1.0 }
        return writesPerAnswer
    }

    /** A reading as the stats channel gives one, answers counted from writes; null before [calibrate] or when unreadable. */
    fun read(): ServerCount? {
        val per = writesPerAnswer ?: return null
        val writes = writes() ?: return null
        return ServerCount(System.currentTimeMillis(), (writes / per).toLong(), processCpuNanos = cpuNanos())
    }

    companion object {
        /** USER_HZ: the unit of /proc's CPU times, 100 on every Linux the lab runs on. */
        const val CLOCK_TICKS = 100L
    }
}
