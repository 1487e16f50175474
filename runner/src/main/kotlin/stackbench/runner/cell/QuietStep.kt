package stackbench.runner.cell

/**
 * Quiet: waits until the requests the warm-up left in flight are done, so they neither slow the measured window
 * nor the idle probe ([QuietWait]). In: the app. Out: how long that took (null: it never went quiet).
 */
class QuietStep(private val quiet: QuietWait) : CellStep {
    override val name = "quiet"

    override fun run(run: CellRun): Outcome? {
        run.record.quietAfterWarmupMs = quiet.await(run.started(), run.cell)
        run.clock.mark("warmup")
        return null
    }
}
