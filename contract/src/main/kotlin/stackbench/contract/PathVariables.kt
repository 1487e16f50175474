package stackbench.contract

/**
 * The path variables of `/cpu/{strategy}`, `/io/{strategy}`, `/db/{strategy}` and `/downstream/{client}`. An id that is not
 * one of the known ones answers 400 with an [ErrorBody] naming the variable and listing the allowed ids.
 */
enum class PathVariable(val id: String) {
    STRATEGY("strategy"),
    CLIENT("client");

    fun unknown(raw: String, known: List<Strategy>): BadParameterException =
        BadParameterException(id, raw, allowedIds(known), "is not a known id")

    companion object {
        fun allowedIds(known: List<Strategy>): String = known.joinToString(", ") { it.id }
    }
}
