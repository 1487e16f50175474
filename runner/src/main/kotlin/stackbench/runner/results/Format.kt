package stackbench.runner.results

import java.util.Locale
import kotlin.math.abs

/** How reports write numbers: fixed English formatting, so a report reads (and tests) the same everywhere. */
object Format {
    private fun f(pattern: String, vararg args: Any?) = String.format(Locale.ROOT, pattern, *args)

    /** Requests per second: thousands separated, one decimal below 100. */
    fun rate(v: Double?): String = when {
        v == null || v.isNaN() -> "–"
        abs(v) >= 100 -> f("%,.0f", v)
        else -> f("%.1f", v)
    }

    /** Milliseconds: three significant figures or so. */
    fun ms(v: Double?): String = when {
        v == null || v.isNaN() -> "–"
        abs(v) >= 1000 -> f("%,.0f", v)
        abs(v) >= 100 -> f("%.0f", v)
        abs(v) >= 10 -> f("%.1f", v)
        else -> f("%.2f", v)
    }

    /** A share (0.25) as a percentage ("25 %"). */
    fun percent(v: Double?, decimals: Int = 0): String = if (v == null || v.isNaN()) "–" else f("%.${decimals}f %%", v * 100)

    /** A relative change (0.12) as "+12 %", with one decimal below 10 %. */
    fun change(v: Double?): String = when {
        v == null || v.isNaN() -> "–"
        abs(v) < 0.1 -> f("%+.1f %%", v * 100)
        else -> f("%+.0f %%", v * 100)
    }

    fun mib(bytes: Long?): String = if (bytes == null) "–" else f("%,.0f MiB", bytes / 1048576.0)

    fun gib(bytes: Long?): String = if (bytes == null) "–" else f("%.1f GiB", bytes / 1073741824.0)

    fun count(v: Long?): String = if (v == null) "–" else f("%,d", v)

    fun perSecond(v: Double?): String = if (v == null || v.isNaN()) "–" else f("%,.0f/s", v)

    fun seconds(ms: Double?): String = if (ms == null) "–" else f("%.2f s", ms / 1000)

    /** A number as an axis value: integers without a decimal point. */
    fun plain(v: Double): String = if (v == Math.floor(v) && abs(v) < 1e15) v.toLong().toString() else f("%s", v)

    /** An ISO instant to the second, "2026-11-22 06:30:22 UTC"; anything else as it is. */
    fun instant(s: String?): String = if (s == null) "–" else runCatching {
        java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'").withZone(java.time.ZoneOffset.UTC).format(java.time.Instant.parse(s))
    }.getOrDefault(s)

    /** A p-value. */
    fun p(v: Double?): String = if (v == null) "–" else if (v < 0.001) "< 0.001" else f("%.3f", v)

    fun plural(n: Int, one: String, many: String = one + "s") = "$n ${if (n == 1) one else many}"
}
