package stackbench.apps.endpoints.noop

import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.RestController
import stackbench.contract.Paths

/** `GET /noop`: the cheapest answer a stack can give, `ok` as text. */
@RestController
class NoopController {
    @GetMapping(Paths.NOOP)
    fun noop(): String = Paths.NOOP_BODY
}
