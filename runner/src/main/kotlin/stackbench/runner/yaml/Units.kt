package stackbench.runner.yaml

import java.time.Duration

/** Parsing of the units suites are written in: durations (`30s`), sizes (`1GiB`), shares (`75%`). */
object Units {
    private val DURATION = Regex("""^(\d+(?:\.\d+)?)\s*(ms|s|m|h)$""")
    private val SIZE = Regex("""^(\d+(?:\.\d+)?)\s*(B|KiB|MiB|GiB|KB|MB|GB|k|K|m|M|g|G)$""")
    private val PERCENT = Regex("""^(\d+(?:\.\d+)?)\s*%$""")

    /** The kernel's smallest CFS quota: 1 ms per 100 ms period. */
    const val MIN_CPUS = 0.01
    const val MIN_MEMORY = 64L shl 20
    const val MAX_MEMORY = 1L shl 40
    /** The longest measured load per cell, and the longest warm-up (warmup, warmup-max). */
    val MAX_DURATION: Duration = Duration.ofHours(6)
    val MAX_WARMUP: Duration = Duration.ofHours(1)

    private val NUMBER = Regex("""^[+]?(\d[\d_]*(\.\d*)?|\.\d+)([eE][+-]?\d+)?$""")

    /** A plain decimal number, finite: no NaN, no infinity (`.nan`, `.inf`), no hex; `_` groups digits. */
    fun number(text: String): Double? {
        val t = text.trim()
        if (!NUMBER.matches(t)) return null
        return t.replace("_", "").toDoubleOrNull()?.takeIf { it.isFinite() }
    }

    const val DURATION_HINT = "a duration is a number and a unit: 500ms, 30s, 2m, 1h"
    const val SIZE_HINT = "a size is a number and a unit: 512MiB, 1GiB (or 1g as Docker writes it)"
    const val PERCENT_HINT = "a share is written with a percent sign: 75%, 0.1%"

    fun duration(text: String): Duration? {
        val m = DURATION.matchEntire(text.trim()) ?: return null
        val n = m.groupValues[1].toDouble()
        val millis = when (m.groupValues[2]) {
            "ms" -> n
            "s" -> n * 1_000
            "m" -> n * 60_000
            else -> n * 3_600_000
        }
        if (!millis.isFinite()) return null
        // above a thousand years, saturate: every key's maximum refuses it, with its own message
        val capped = millis.coerceAtMost(1000.0 * 365 * 86_400_000)
        val whole = kotlin.math.floor(capped).toLong()
        return Duration.ofMillis(whole).plusNanos(((capped - whole) * 1_000_000).toLong())
    }

    fun size(text: String): Long? {
        val m = SIZE.matchEntire(text.trim()) ?: return null
        val n = m.groupValues[1].toDouble()
        val factor = when (m.groupValues[2]) {
            "B" -> 1L
            "KiB", "k", "K" -> 1L shl 10
            "MiB", "m", "M" -> 1L shl 20
            "GiB", "g", "G" -> 1L shl 30
            "KB" -> 1_000L
            "MB" -> 1_000_000L
            else -> 1_000_000_000L
        }
        val bytes = n * factor
        return if (bytes.isFinite()) bytes.coerceAtMost(Long.MAX_VALUE.toDouble()).toLong() else null
    }

    /** `75%` → 75.0 */
    fun percent(text: String): Double? = PERCENT.matchEntire(text.trim())?.groupValues?.get(1)?.toDouble()

    fun formatDuration(d: Duration): String {
        val ms = d.toMillis()
        return when {
            ms % 3_600_000 == 0L && ms > 0 -> "${ms / 3_600_000}h"
            ms % 60_000 == 0L && ms > 0 -> "${ms / 60_000}m"
            ms % 1_000 == 0L && ms > 0 -> "${ms / 1_000}s"
            else -> "${ms}ms"
        }
    }

    fun formatSize(bytes: Long): String = when {
        bytes % (1L shl 30) == 0L -> "${bytes shr 30}GiB"
        bytes % (1L shl 20) == 0L -> "${bytes shr 20}MiB"
        else -> "${bytes}B"
    }
}
