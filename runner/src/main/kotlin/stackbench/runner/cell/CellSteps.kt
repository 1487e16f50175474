package stackbench.runner.cell

import stackbench.runner.sut.AppLauncher

/** The steps of every cell, in order; the stop step is apart, as it runs however the others end. */
class CellSteps(val steps: List<CellStep>, val stop: CellStep) {
    companion object {
        /** The lab's own steps: start, verify, warm up, quiet, load, probe; then stop. */
        fun of(lab: Lab): CellSteps {
            val system = oshi.nativefree.SystemInfo()
            val os = system.operatingSystem
            val quiet = QuietWait(lab)
            return CellSteps(
                listOf(
                    StartStep(AppLauncher(lab.hosts.app, lab.isolation, lab.java, lab.home, lab.machineCpus, lab.http, lab.fastStart, lab.database)),
                    VerifyStep(),
                    WarmUpStep(os, quiet),
                    QuietStep(quiet),
                    LoadStep(os, system.hardware.processor),
                    ProbeStep(quiet),
                ),
                StopStep(),
            )
        }
    }
}
