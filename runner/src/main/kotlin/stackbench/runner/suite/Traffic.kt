package stackbench.runner.suite

/**
 * What a declared endpoint (`kind: http`) sends when it is more than one fixed request: its requests (one, or a
 * weighted `mix:` of named ones) and the values they draw per request (`feed:`). One configuration, one cell: a feed is
 * not a sweep and a mix is not one cell per request. Placeholders `{feed}` and `{feed.column}` ([Placeholders]) stay in
 * the requests; each driver fills them as it sends (docs/suite-format.md, *Data feeders and request mixes*).
 */
data class Traffic(
    /** The requests, in the suite's order; one for a fed endpoint without a mix. */
    val requests: List<RequestTemplate>,
    val feeds: List<Feed>,
    /** True for `mix:` (each answer counted under its request's name), false for one fed request. */
    val mixed: Boolean,
) {
    /** The feeds some request reads, by how they are drawn. */
    val picks: Set<Pick> get() = feeds.map { it.pick }.toSet()
}

/** One request of a mix (or the one fed request): its [name] in the results, [weight] its share of the mix. */
data class RequestTemplate(
    val name: String,
    val method: String,
    /** The path and query as the suite wrote them, `{feed.column}` placeholders kept. */
    val path: String,
    val headers: Map<String, String>,
    val body: String?,
    val status: Int,
    val check: BodyCheck?,
    val weight: Int = 1,
) {
    /** `GET /orders/{ids.id}`: what was sent, as the suite wrote it ([stackbench.runner.results.NamedLoad.request]). */
    val line: String get() = "$method $path"

    fun fill(f: (String) -> String) = copy(path = f(path), headers = headers.mapValues { f(it.value) }, body = body?.let(f), check = check?.fill(f))
}

/** How a feed's value is drawn for each request. */
enum class Pick(val id: String) {
    /** Row after row, wrapping at the end. */
    SEQUENTIAL("sequential"),
    /** A row drawn uniformly at random for each request. */
    RANDOM("random"),
    /** One row per connection (virtual user), kept for all its requests. */
    PER_USER("per-user");

    companion object {
        fun byId(id: String) = entries.firstOrNull { it.id == id }
    }
}

/**
 * Values requests draw from (`feed: {ids: {file: order-ids.csv, pick: random}}`): a table of [rows], each of
 * [columns] values. A range (`range: 1..1000`) and a list (`one-of: [a, b]`) are tables of one column, `value`.
 */
data class Feed(
    val name: String,
    val pick: Pick,
    val columns: List<String>,
    val rows: List<List<String>>,
    /** Where the values come from, for messages and the plan: `order-ids.csv`, `1..1000`, `one-of`. */
    val source: String,
) {
    init {
        require(rows.isNotEmpty() && rows.all { it.size == columns.size }) { "feed $name: every row needs ${columns.size} values" }
    }

    override fun toString() = "Feed($name: ${rows.size} rows of ${columns.joinToString()} from $source, ${pick.id})"
}

/** `{feed}` and `{feed.column}` in a request's path, query, headers, body and check. */
object Placeholders {
    /** A placeholder: group 1 the feed, group 2 its column (empty for `{feed}`). */
    val PATTERN = Regex("\\{([A-Za-z0-9_]+)(?:\\.([A-Za-z0-9_-]+))?}")

    /** A piece of a request's text: as written, or a feed's column filled per request. */
    sealed interface Part {
        data class Text(val text: String) : Part
        /** Feed [feed]'s column [column], both 0-based indexes. */
        data class Value(val feed: Int, val column: Int) : Part
    }

    /** [text] cut at each placeholder of a feed in [feeds]; other braces stay text. */
    fun parts(text: String, feeds: List<Feed>): List<Part> {
        val parts = mutableListOf<Part>()
        var at = 0
        for (m in PATTERN.findAll(text)) {
            val ref = resolve(m, feeds) ?: continue
            if (m.range.first > at) parts += Part.Text(text.substring(at, m.range.first))
            parts += ref
            at = m.range.last + 1
        }
        if (at < text.length || parts.isEmpty()) parts += Part.Text(text.substring(at))
        return parts
    }

    /** True when [text] reads any feed. */
    fun fed(text: String, feeds: List<Feed>) = parts(text, feeds).any { it is Part.Value }

    /** [text] with each placeholder filled from row [rowOf] (feed index → row index) of its feed. */
    fun fill(text: String, feeds: List<Feed>, rowOf: (Int) -> Int): String = parts(text, feeds).joinToString("") { p ->
        when (p) {
            is Part.Text -> p.text
            is Part.Value -> feeds[p.feed].rows[rowOf(p.feed)][p.column]
        }
    }

    /** What is wrong with the placeholders of [text]: a feed's column it does not have, `{feed}` of a feed of several columns. */
    fun problems(text: String, feeds: List<Feed>): List<String> = PATTERN.findAll(text).mapNotNull { m ->
        val feed = feeds.firstOrNull { it.name == m.groupValues[1] } ?: return@mapNotNull null
        val column = m.groupValues[2]
        when {
            column.isEmpty() && feed.columns.size > 1 ->
                "names {${feed.name}}, but the feed has the columns ${feed.columns.joinToString()}: write {${feed.name}.${feed.columns.first()}}"
            column.isNotEmpty() && column !in feed.columns ->
                "names {${m.groupValues[1]}.$column}, but the feed ${feed.name} has no column $column (its columns: ${feed.columns.joinToString()})"
            else -> null
        }
    }.toList()

    private fun resolve(m: MatchResult, feeds: List<Feed>): Part.Value? {
        val f = feeds.indexOfFirst { it.name == m.groupValues[1] }.takeIf { it >= 0 } ?: return null
        val column = m.groupValues[2]
        val c = if (column.isEmpty()) 0.takeIf { feeds[f].columns.size == 1 } else feeds[f].columns.indexOf(column).takeIf { it >= 0 }
        return c?.let { Part.Value(f, it) }
    }
}

/**
 * Which fed requests the verification sends before any load: the first [FIRST] rows of each feed and [DRAWN] more
 * drawn at random (with a fixed seed, so a rerun checks the same ones), [SIZE] at most a request.
 */
object FeedSample {
    const val FIRST = 3
    const val DRAWN = 2
    const val SIZE = FIRST + DRAWN

    /** The sample's row index of feed [f], of the [k]-th sampled request (0 until [SIZE]). */
    fun row(feeds: List<Feed>, f: Int, k: Int): Int {
        val n = feeds[f].rows.size
        if (k < FIRST) return k % n
        val random = java.util.Random(31L * feeds[f].name.hashCode() + k)
        return random.nextInt(n)
    }

    /** Every sampled request of [request], filled: [SIZE] of a fed request (fewer when its feeds are shorter), 1 of a fixed one. */
    fun of(request: RequestTemplate, feeds: List<Feed>): List<RequestTemplate> {
        val texts = listOf(request.path, request.body.orEmpty()) + request.headers.values + listOfNotNull(request.check?.let { checkText(it) })
        if (texts.none { Placeholders.fed(it, feeds) }) return listOf(request)
        val count = minOf(SIZE, maxOf(FIRST, feeds.maxOf { it.rows.size }).coerceAtMost(SIZE))
        return (0 until count).map { k -> request.fill { Placeholders.fill(it, feeds) { f -> row(feeds, f, k) } } }.distinct()
    }

    private fun checkText(c: BodyCheck) = when (c) {
        is BodyCheck.Exact -> c.text
        is BodyCheck.Contains -> c.text
        is BodyCheck.Matches -> c.pattern
        is BodyCheck.JsonAt -> c.equals
    }
}
