package stackbench.runner.results

/**
 * Which app process (JVM) measured a cell, for decisions that take the process as the unit of replication.
 * A cell belongs to the JVM that served it: the cell that started it ([CellResult.appStartedBy]) or itself, so a
 * process that died and was started again counts as two. Runs before processes were recorded ([recorded] says which)
 * still name the cell that started each JVM: with `restart: cell` every window is its own process, with `restart: app`
 * every window of a configuration's one JVM is the same process, so such a run has one process a side and decides
 * nothing until it is re-run under the process-level method (`processes: 2` or more).
 */
object Processes {
    /** The identity of the JVM that measured [cell] within its run. */
    fun of(cell: CellResult): String = if (cell.process == null) cell.appStartedBy ?: cell.key else "${cell.process}@${cell.appStartedBy ?: cell.key}"

    /** Whether [cell] recorded its process. */
    fun recorded(cell: CellResult): Boolean = cell.process != null

    /** [cells] grouped by process, in the order their processes first appear, each with [value]'s values. */
    fun <T> grouped(cells: List<CellResult>, value: (CellResult) -> T?): List<List<T>> =
        cells.groupBy { of(it) }.values.map { group -> group.mapNotNull(value) }.filter { it.isNotEmpty() }

    /**
     * The round of the plan that measured [cell]: the number its process ends in (`tomcat-platform#2`: 2; with
     * `restart: cell`, `<configuration>#<repetition>`: the repetition). The plan interleaves rounds, every
     * configuration's process k before any configuration's k + 1, so two configurations' cells of one round ran minutes
     * apart. Null when the cell recorded no process.
     */
    fun round(cell: CellResult): String? = cell.process?.substringAfterLast('#')

    /** [cells] that recorded their process grouped by round ([round]), in the order their rounds first appear, each with [value]'s values. */
    fun <T> byRound(cells: List<CellResult>, value: (CellResult) -> T?): Map<String, List<T>> =
        cells.filter { recorded(it) }.groupBy { round(it)!! }.mapValues { (_, group) -> group.mapNotNull(value) }.filterValues { it.isNotEmpty() }

    /** The note a decision carries when some of its cells recorded no process. */
    const val NOT_RECORDED = "a run before processes were recorded: each JVM read from the cell that started it"

    /** Why a row of such a run with a side of one JVM cannot tell: the words findings.md shows for it. */
    const val NOT_RERUN = "not re-run under the process-level method"
}
