package stackbench.runner.results

/**
 * The named requests of a cell's measured window ([LoadResult.requests]: a mix, a scenario's steps), read one at a
 * time: every view that reads a cell's throughput, latency or errors (the comparisons, the gate, the CSV) reads one
 * named request's by reading the cell as that request alone ([alone]). Pure.
 */
object NamedRequests {
    /** The figures one named request has of its own ([NamedLoad]); the others (CPU, memory, start-up...) are the cell's. */
    val FIGURES = listOf("throughput", "mean", "p50", "p90", "p99", "errors")

    /** The names of [cell]'s requests, in the suite's order; empty for a cell of one request or without a window. */
    fun names(cell: CellResult): List<String> = cell.window.measured?.requests.orEmpty().map { it.name }

    /** The names of every request the [cells] measured, each once, in the order first seen. */
    fun names(cells: List<CellResult>): List<String> = cells.flatMap { names(it) }.distinct()

    /** [cell]'s named request [name], or null when its window has none of that name (or no window). */
    fun of(cell: CellResult, name: String): NamedLoad? = cell.window.measured?.requests?.firstOrNull { it.name == name }

    /**
     * [cell] as its request [name] alone: its window's answers, throughput, status codes, errors and latency are that
     * request's, its per-second series gone (the driver's is all requests together); everything else is the cell's.
     * A cell without a window is itself (it counts for nothing either way); null when its window has no such request.
     */
    fun alone(cell: CellResult, name: String): CellResult? {
        val measured = cell.window.measured ?: return cell
        val one = of(cell, name) ?: return null
        return cell.copy(window = cell.window.copy(measured = measured.copy(
            responses = one.responses, successes = one.successes, throughput = one.throughput, statusCodes = one.statusCodes,
            errors = one.errors, latency = one.latency, spectrum = one.spectrum, perSecond = emptyList(), requests = emptyList(),
            // what the driver counts only for the whole load is not this request's
            inFlightAtEnd = 0, aborted = emptyMap(), dropped = 0,
        )))
    }

    /**
     * Why [name] cannot be read from [cells] (the cells of [configKey] with a measured window): it names none of their
     * requests; null when every one has it.
     */
    fun missing(configKey: String, cells: List<CellResult>, name: String): String? {
        val measured = cells.filter { it.configKey == configKey && it.window.measured != null }
        val lacking = measured.filter { of(it, name) == null }
        if (lacking.isEmpty()) return null
        val known = names(measured)
        return "request '$name' is not a named request of $configKey (" +
            (if (known.isEmpty()) "its cells measured one request, not a mix or a scenario's steps" else "its requests: ${known.joinToString()}") +
            (if (lacking.size < measured.size) "; missing in ${lacking.joinToString { it.key }}" else "") + ")"
    }

    /**
     * [result] as its request [name] alone, for `compare --request` and `gate --request`: the cells of each
     * configuration that measured a request of that name, read as it alone ([alone]); the other configurations left
     * out. Fails naming the requests the runs have when none measured it.
     */
    fun run(result: RunResult, name: String): RunResult {
        val configs = result.cells.filter { of(it, name) != null }.map { it.configKey }.toSet()
        require(configs.isNotEmpty()) {
            "request '$name' is not a named request of run ${result.run.id}: " +
                names(result.cells).let { if (it.isEmpty()) "its cells measured one request each (no mix, no scenario)" else "its requests are ${it.joinToString()}" }
        }
        return result.copy(cells = result.cells.filter { it.configKey in configs }.map { alone(it, name) ?: it })
    }
}
