package stackbench.contract

/** A query parameter with its allowed range. The apps answer 400 outside it; suites are checked against it. */
enum class Parameter(val id: String, val range: LongRange, val unit: String) {
    LIMIT("limit", 0L..10_000_000L, ""),
    BATCH("batch", 1L..10_000_000L, ""),
    DELAY("delay", 0L..60_000L, "ms"),
    /** The key of `/db`'s row: the table holds ids 1 to [Database.ITEMS]. */
    ID("id", 1L..Database.ITEMS, ""),
    /** `/db`'s wait inside the query (`pg_sleep`), so that the query's time is known. */
    DB_DELAY("db-delay", 0L..60_000L, "ms");

    val allowed: String get() = "${range.first}..${range.last}" + if (unit.isEmpty()) "" else " $unit"

    /**
     * Reads the raw query value of this parameter, or says what is wrong with it.
     * A missing value takes [default] when there is one.
     */
    fun parse(raw: String?, default: Long? = null): Long {
        if (raw == null || raw.isEmpty()) {
            return default ?: throw BadParameterException(this, raw, "is required")
        }
        val value = raw.toLongOrNull() ?: throw BadParameterException(this, raw, "is not a whole number")
        if (value !in range) throw BadParameterException(this, raw, "is out of range")
        return value
    }

    companion object {
        fun byId(id: String): Parameter? = entries.firstOrNull { it.id == id }
    }
}

/** A request parameter the endpoint cannot accept; the apps turn it into a 400 with [ErrorBody]. */
class BadParameterException(
    val parameter: String,
    val value: String?,
    val allowed: String,
    reason: String,
) : IllegalArgumentException("parameter '$parameter' ${if (value == null) "" else "= '$value' "}$reason; allowed: $allowed") {
    constructor(parameter: Parameter, value: String?, reason: String) :
        this(parameter.id, value, parameter.allowed, reason)

    fun body(): ErrorBody = ErrorBody(error = "bad_parameter", parameter = parameter, value = value, allowed = allowed, message = message!!)
}

/** The JSON body of every 400 answer. */
data class ErrorBody(
    val error: String,
    val parameter: String,
    val value: String?,
    val allowed: String,
    val message: String,
)
