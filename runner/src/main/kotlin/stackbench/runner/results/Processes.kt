package stackbench.runner.results

/**
 * Which app process (JVM) measured a cell, for decisions that take the process as the unit of replication.
 * A cell that records its process ([CellResult.process]) belongs to the JVM that served it: the cell that started
 * it ([CellResult.appStartedBy]) or itself, so a process that died and was started again counts as two. A cell of
 * a run before processes were recorded is taken as a process of its own ([recorded] says which).
 */
object Processes {
    /** The identity of the JVM that measured [cell] within its run. */
    fun of(cell: CellResult): String = if (cell.process == null) cell.key else "${cell.process}@${cell.appStartedBy ?: cell.key}"

    /** Whether [cell] recorded its process. */
    fun recorded(cell: CellResult): Boolean = cell.process != null

    /** [cells] grouped by process, in the order their processes first appear, each with [value]'s values. */
    fun <T> grouped(cells: List<CellResult>, value: (CellResult) -> T?): List<List<T>> =
        cells.groupBy { of(it) }.values.map { group -> group.mapNotNull(value) }.filter { it.isNotEmpty() }

    /** The note a decision carries when some of its cells recorded no process. */
    const val NOT_RECORDED = "processes not recorded (a run before they were): each window taken as its own process"
}
