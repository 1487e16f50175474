package stackbench.runner.findings

import stackbench.runner.decide.Figure
import stackbench.runner.stats.Decisions
import stackbench.runner.yaml.Problems
import stackbench.runner.yaml.SuiteException
import stackbench.runner.yaml.YamlDocument
import stackbench.runner.yaml.YamlMap
import org.snakeyaml.engine.v2.nodes.Node
import org.snakeyaml.engine.v2.nodes.ScalarNode

/**
 * Reads docs/claims.yaml (format in its header comment). Every problem is reported at its file, line and
 * column, all of them at once, as suite files are ([SuiteException]).
 */
object ClaimsParser {
    private val ID = Regex("[a-z0-9][a-z0-9-]*")
    private val PLACEHOLDER = Regex("\\{([a-z][a-z0-9-]*)}")

    fun parse(text: String, source: String): Claims {
        val problems = Problems(source, text.lines())
        val root = YamlDocument.compose(text, source, problems, "claims", "must be a mapping with the key comparisons")
        var claims = emptyList<Claim>()
        var articles = emptyList<Article>()
        val comparisons = root?.let { node ->
            val top = YamlMap(node, "", problems)
            claims = top.maps("claims").orEmpty().mapNotNull { claim(it, problems) }
            claims.groupBy { it.id }.filter { it.value.size > 1 }.keys.forEach { id ->
                problems.at(top.valueNode("claims"), "claims", "the id '$id' is used more than once")
            }
            val named = claims.map { it.article }.toSet()
            articles = top.maps("articles").orEmpty().mapNotNull { article(it, named, problems) }
            val list = top.maps("comparisons") ?: emptyList<YamlMap>().also { problems.at(node, "comparisons", "is missing: the list of comparisons") }
            top.finish()
            val declared = claims.map { it.id }.toSet()
            list.mapNotNull { comparison(it, declared, problems) }.also { cs ->
                val tested = cs.flatMap { c -> c.rows.filter { it.claimId != null && it.claimed(c.threshold) != null }.map { it.claimId } }.toSet()
                claims.filter { it.id !in tested }.forEach { c ->
                    problems.at(top.valueNode("claims"), "claims", "the claim '${c.id}' has no row that tests it", "name it with claim-id: on a comparison or a row that claims a relation")
                }
            }
        }.orEmpty()
        comparisons.groupBy { it.id }.filter { it.value.size > 1 }.keys.forEach { id ->
            problems.at(null, "comparisons", "the id '$id' is used more than once")
        }
        if (problems.all.isNotEmpty()) throw SuiteException(problems.all.sortedWith(compareBy({ it.line }, { it.column })))
        return Claims(comparisons, claims, articles)
    }

    private fun article(m: YamlMap, named: Set<String>, problems: Problems): Article? {
        val name = m.requiredString("name", "the article as its claims name it (their article:), e.g. 'blocking I/O (2024)'")
        if (name != null && name !in named) {
            problems.at(m.scalar("name"), m.qualify("name"), "no claim names the article '$name'", "articles named by claims: ${named.sorted().joinToString()}")
        }
        val said = m.requiredString("said", "what the article said, in a few words of ours")
        val advice = m.requiredString("advice", "what a reader should do, given what the lab measured")
        m.finish()
        return if (name == null || said == null || advice == null) null else Article(name, said, advice)
    }

    private fun claim(m: YamlMap, problems: Problems): Claim? {
        val id = m.requiredString("id", "a short name; docs/findings.md places the verdict at <!-- verdict:ID -->")
        if (id != null && !ID.matches(id)) problems.at(m.scalar("id"), m.qualify("id"), "'$id' must be lower-case letters, digits and '-'")
        val article = m.requiredString("article", "which article, e.g. 'blocking I/O (2024)'")
        val text = m.requiredString("text", "the claim, in a sentence")
        val fixed = m.string("fixed")?.let { day ->
            runCatching { java.time.LocalDate.parse(day) }.getOrNull()
                ?: null.also { problems.at(m.scalar("fixed"), m.qualify("fixed"), "'$day' is not a day (YYYY-MM-DD)", "the day the claim was written here") }
        }
        m.finish()
        return if (id == null || article == null || text == null) null else Claim(id, article, text, fixed)
    }

    private fun comparison(m: YamlMap, declared: Set<String>, problems: Problems): Comparison? {
        val id = m.requiredString("id", "a short name; docs/findings.md places the table at <!-- table:ID -->")
        if (id != null && !ID.matches(id)) problems.at(m.scalar("id"), m.qualify("id"), "'$id' must be lower-case letters, digits and '-'")
        val title = m.string("title") ?: ""
        val figure = figure(m, "figure", problems, required = true)
        val summary = m.scalar("summary")?.let { n ->
            Summary.entries.firstOrNull { it.id == n.value } ?: null.also { problems.at(n, m.qualify("summary"), "'${n.value}' is not median or mean") }
        } ?: Summary.MEDIAN
        val threshold = m.double("threshold", 0.0, 1.0)?.also { t ->
            if (t <= 0.0 || t > MAX_BAND) problems.at(m.scalar("threshold"), m.qualify("threshold"),
                "'$t' is not a band above 0 and at most $MAX_BAND: \"the same\" is never wider than ±${(MAX_BAND * 100).toInt()} %",
                "a claim of a size (\"doubles\", \"below half\") is a size: {above: 1.5, fixed: YYYY-MM-DD}, tested beside the band")
        }?.takeIf { it > 0.0 && it <= MAX_BAND } ?: Decisions.THRESHOLD
        val size = m.map("size")?.let { size(it, problems) }
        val paired = m.boolean("paired") ?: false
        val run = m.string("run")
        val aTemplate = m.map("a")?.let { side(it) }
        val bTemplate = m.map("b")?.let { side(it) }
        val show = m.scalars("show").orEmpty().mapNotNull { n ->
            Figure.of(n.value) ?: null.also { problems.at(n, m.qualify("show"), "'${n.value}' is not a figure", "figures: ${Figure.ids.joinToString()}") }
        }
        val over = m.map("over")
        val rowMaps = m.maps("rows")
        val built = when {
            over != null && rowMaps != null -> null.also { problems.at(m.keyNode("rows"), m.qualify("rows"), "give either over (rows from a sweep) or rows, not both") }
            over != null -> sweepRows(m, over, run, aTemplate, bTemplate, problems)
            rowMaps != null -> rowMaps.mapNotNull { r -> listedRow(r, run, aTemplate, bTemplate, declared, problems) }
            else -> null.also { problems.at(m.node, m.qualify(id ?: "comparison"), "has no rows: give over (a sweep) or rows") }
        }
        val rows = built?.let { applyClaims(m, it, declared, threshold, problems) }?.map { it.copy(size = size?.takeIf { s -> appliesTo(s, it, threshold) }) }
        val rowHeader = m.string("row-header") ?: over?.node?.value?.mapNotNull { (it.keyNode as? ScalarNode)?.value }?.joinToString(", ") ?: "configuration"
        m.finish()
        if (id == null || figure == null || rows == null) return null
        if (rows.isEmpty()) problems.at(m.node, m.qualify("rows"), "no rows")
        if (rows.any { it.b != null } && rows.any { it.b == null }) problems.at(m.node, id, "either every row has a side b or none has")
        if (size != null && rows.none { it.size != null }) {
            problems.at(m.keyNode("size"), m.qualify("size"), "applies to no row: no row's published ratio (or claim: without one) lies ${size.text}")
        }
        return Comparison(id, title, figure, summary, rowHeader, aTemplate?.get("name")?.value ?: "A", bTemplate?.get("name")?.value ?: rows.firstOrNull()?.b?.let { "B" }, rows, show, threshold, paired, size)
    }

    /**
     * `size: {above: 1.5, fixed: 2026-11-23}` (or `below:`): the article's claim of a size, with the day it was fixed.
     */
    private fun size(m: YamlMap, problems: Problems): Size? {
        val above = m.double("above", 0.0, 1000.0)
        val below = m.double("below", 0.0, 1000.0)
        val fixedNode = m.scalar("fixed")
        m.finish()
        if ((above == null) == (below == null)) {
            problems.at(m.node, m.path, "give one bound: above: X (a ÷ b claimed above X) or below: X", "e.g. size: {above: 1.5, fixed: 2026-11-23}")
            return null
        }
        val bound = above ?: below!!
        if (!(bound > 0)) return null.also { problems.at(m.scalar(if (above != null) "above" else "below"), m.path, "a size is a ratio above 0, not $bound") }
        if (fixedNode == null) return null.also { problems.at(m.node, m.qualify("fixed"), "is required: the day the size was written here (YYYY-MM-DD), before the runs that test it") }
        val fixed = runCatching { java.time.LocalDate.parse(fixedNode.value) }.getOrNull()
            ?: return null.also { problems.at(fixedNode, m.qualify("fixed"), "'${fixedNode.value}' is not a date (YYYY-MM-DD)") }
        return Size(bound, above != null, fixed)
    }

    /**
     * Whether a comparison's size is a row's claim too: a row against a side b that claims a relation, whose published ratio
     * lies on the size's side, or, with none published, whose `claim:` points that way (higher for above 1, lower for below 1).
     */
    private fun appliesTo(size: Size, row: Row, threshold: Double): Boolean {
        if (row.b == null || row.claimed(threshold) == null) return false
        val published = row.published
        return if (published != null) size.covers(published)
        else (size.above && size.bound > 1 && row.claim == Expectation.HIGHER) || (!size.above && size.bound < 1 && row.claim == Expectation.LOWER)
    }

    /**
     * The comparison's `claim:` and `claim-id:`: one value for every row, or a list in row order (`~`: the
     * row's own, or none); a listed row's own value wins over the comparison's single one.
     */
    private fun applyClaims(m: YamlMap, rows: List<Row>, declared: Set<String>, threshold: Double, problems: Problems): List<Row> {
        val broadcast = m.valueNode("claim-id") is ScalarNode
        fun perRow(key: String): List<ScalarNode?>? {
            val node = m.valueNode(key) ?: return null
            val values = m.scalars(key) ?: return null
            if (node is ScalarNode) return List(rows.size) { values.single() }
            if (values.size != rows.size) {
                problems.at(node, m.qualify(key), "has ${values.size} value(s) but the comparison has ${rows.size} row(s)")
                return null
            }
            return values
        }
        val claims = perRow("claim")
        val ids = perRow("claim-id")
        return rows.mapIndexed { i, row ->
            val claim = claims?.get(i)?.takeUnless { blank(it) }?.let { n -> expectation(n, m.qualify("claim"), problems) }
            val claimId = ids?.get(i)?.takeUnless { blank(it) }?.let { n -> claimId(n, m.qualify("claim-id"), declared, problems) }
            val withClaim = row.copy(claim = row.claim ?: claim)
            // one claim-id for the whole comparison names the rows that claim something; the others stay out
            val out = withClaim.copy(claimId = row.claimId ?: claimId?.takeUnless { broadcast && withClaim.claimed(threshold) == null })
            if (out.claimId != null && out.claimed(threshold) == null) {
                problems.at(ids?.get(i) ?: m.node, m.qualify("claim-id"), "row '${row.label}' tests the claim '${out.claimId}' but claims nothing",
                    "give it published figures or claim: higher, lower or same")
            }
            out
        }
    }

    private fun blank(n: ScalarNode) = n.value in setOf("~", "null", "")

    private fun expectation(n: ScalarNode, key: String, problems: Problems): Expectation? =
        Expectation.of(n.value) ?: null.also { problems.at(n, key, "'${n.value}' is not a claim", "claims: ${Expectation.entries.joinToString { it.id }} (~: what the published figures say)") }

    private fun claimId(n: ScalarNode, key: String, declared: Set<String>, problems: Problems): String? =
        n.value.takeIf { it in declared } ?: null.also { problems.at(n, key, "'${n.value}' names no claim", "claims: ${declared.sorted().joinToString().ifEmpty { "none (declare them under claims:)" }}") }

    private fun figure(m: YamlMap, key: String, problems: Problems, required: Boolean): Figure? {
        val n = m.scalar(key) ?: return null.also { if (required) problems.at(m.node, m.qualify(key), "is missing", "figures: ${Figure.ids.joinToString()}") }
        return Figure.of(n.value) ?: null.also { problems.at(n, m.qualify(key), "'${n.value}' is not a figure", "figures: ${Figure.ids.joinToString()}") }
    }

    /** A side's fields as written (app, request, run, connections, rate, name), each with its node for errors. */
    private fun side(m: YamlMap): Map<String, ScalarNode> {
        val keys = listOf("name", "app", "request", "method", "run", "connections", "rate")
        val out = keys.mapNotNull { k -> m.scalar(k)?.let { k to it } }.toMap()
        m.finish()
        return out
    }

    private fun sweepRows(m: YamlMap, over: YamlMap, run: String?, a: Map<String, ScalarNode>?, b: Map<String, ScalarNode>?, problems: Problems): List<Row>? {
        val vars = over.node.value.mapNotNull { t -> (t.keyNode as? ScalarNode)?.value?.let { k -> k to over.scalars(k).orEmpty().map { it.value } } }
        over.finish()
        if (a == null) return null.also { problems.at(m.node, m.qualify("a"), "is missing: the cells of side a, e.g. {app: tomcat, request: \"/cpu/direct?limit={limit}\"}") }
        val combos = vars.fold(listOf(emptyMap<String, String>())) { acc, (k, values) -> acc.flatMap { c -> values.map { c + (k to it) } } }
        val published = m.map("published")
        val pa = published?.let { numbers(it, "a", combos.size, problems) }
        val pb = published?.let { numbers(it, "b", combos.size, problems) }
        val pr = published?.let { numbers(it, "ratio", combos.size, problems) }
        published?.finish()
        return combos.mapIndexedNotNull { i, vals ->
            val label = vals.entries.joinToString(", ") { (k, v) -> if (vars.size == 1) v else "$k $v" }
            val sa = selector(a, vals, run, m, "a", problems) ?: return@mapIndexedNotNull null
            val sb = b?.let { selector(it, vals, run, m, "b", problems) ?: return@mapIndexedNotNull null }
            Row(label, sa, sb, pa?.getOrNull(i), pb?.getOrNull(i), pr?.getOrNull(i), name = if (vars.size == 1) "${vars[0].first} $label" else label)
        }
    }

    private fun listedRow(r: YamlMap, run: String?, a: Map<String, ScalarNode>?, b: Map<String, ScalarNode>?, declared: Set<String>, problems: Problems): Row? {
        val label = r.requiredString("label", "what the row shows, e.g. 'Tomcat, blocking on the request thread'")
        val rowRun = r.string("run") ?: run
        val ownA = r.map("a")?.let { side(it) }
        val ownB = r.map("b")?.let { side(it) }
        val published = r.map("published")
        val pa = published?.let { numbers(it, "a", 1, problems)?.single() }
        val pb = published?.let { numbers(it, "b", 1, problems)?.single() }
        val pr = published?.let { numbers(it, "ratio", 1, problems)?.single() }
        published?.finish()
        val claim = r.scalar("claim")?.takeUnless { blank(it) }?.let { expectation(it, r.qualify("claim"), problems) }
        val claimId = r.scalar("claim-id")?.takeUnless { blank(it) }?.let { claimId(it, r.qualify("claim-id"), declared, problems) }
        r.finish()
        val sideA = (a.orEmpty() + ownA.orEmpty()).takeIf { it.isNotEmpty() }
            ?: return null.also { problems.at(r.node, r.qualify("a"), "is missing: the cells of side a") }
        val sideB = (b.orEmpty() + ownB.orEmpty()).takeIf { it.isNotEmpty() }
        val sa = selector(sideA, emptyMap(), rowRun, r, "a", problems) ?: return null
        val sb = sideB?.let { selector(it, emptyMap(), rowRun, r, "b", problems) ?: return null }
        return Row(label ?: return null, sa, sb, pa, pb, pr, claim, claimId)
    }

    private fun selector(fields: Map<String, ScalarNode>, vars: Map<String, String>, run: String?, where: YamlMap, side: String, problems: Problems): Selector? {
        fun text(k: String): String? = fields[k]?.let { n ->
            PLACEHOLDER.replace(n.value) { mr ->
                vars[mr.groupValues[1]] ?: mr.value.also { problems.at(n, where.qualify("$side.$k"), "'${mr.value}' names no variable of over", "variables: ${vars.keys.joinToString().ifEmpty { "none" }}") }
            }
        }
        val app = text("app") ?: return null.also { problems.at(where.node, where.qualify("$side.app"), "is missing: the app configuration's name in the suite") }
        val request = text("request") ?: return null.also { problems.at(where.node, where.qualify("$side.request"), "is missing: the request, e.g. /cpu/direct?limit=10000") }
        val runName = text("run") ?: run ?: return null.also { problems.at(where.node, where.qualify("$side.run"), "is missing: the run's folder name (here or on the comparison)") }
        val connections = fields["connections"]?.let { n -> text("connections")?.toIntOrNull() ?: null.also { problems.at(n, where.qualify("$side.connections"), "'${n.value}' is not a whole number") } }
        val rate = fields["rate"]?.let { n -> text("rate")?.toDoubleOrNull() ?: null.also { problems.at(n, where.qualify("$side.rate"), "'${n.value}' is not a number") } }
        val method = text("method")?.uppercase()
        if (method != null && method !in setOf("GET", "POST")) problems.at(fields["method"], where.qualify("$side.method"), "'$method' is not GET or POST")
        return Selector(runName, app, request, method, connections, rate)
    }

    /** A list of [n] published numbers under [key] (`~` where the article gave none); null when absent. */
    private fun numbers(m: YamlMap, key: String, n: Int, problems: Problems): List<Double?>? {
        val nodes = m.scalars(key) ?: return null
        if (nodes.size != n) {
            problems.at(m.valueNode(key) as Node?, m.qualify(key), "has ${nodes.size} value(s) but the comparison has $n row(s)")
            return null
        }
        return nodes.map { node ->
            when (node.value) {
                "~", "null", "" -> null
                else -> node.value.replace("_", "").toDoubleOrNull() ?: null.also { problems.at(node, m.qualify(key), "'${node.value}' is not a number") }
            }
        }
    }
}
