package stackbench.apps.endpoints.info

import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.RestController
import stackbench.contract.AppInfo
import stackbench.contract.Paths

/** `GET /info`: what runs, and every pool that bounds its concurrency. */
@RestController
class InfoController(private val info: AppInfoFactory) {
    @GetMapping(Paths.INFO)
    fun info(): AppInfo = info.current()
}
