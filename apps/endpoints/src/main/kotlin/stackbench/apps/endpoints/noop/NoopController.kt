package stackbench.apps.endpoints.noop

import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.RestController
import stackbench.apps.endpoints.stats.WorkCounters
import stackbench.contract.Paths

/** `GET /noop`: the cheapest answer a stack can give, `ok` as text (its handler body counted as its work). */
@RestController
class NoopController(private val work: WorkCounters) {
    @GetMapping(Paths.NOOP)
    fun noop(): String = work.cpu(Paths.NOOP) { Paths.NOOP_BODY }
}
