package stackbench.apps.endpoints.errors

import org.slf4j.LoggerFactory
import org.springframework.beans.factory.DisposableBean
import org.springframework.stereotype.Component
import reactor.core.publisher.Hooks

/**
 * A downstream call that fails after its client went away (the request was cancelled) has nobody left to answer.
 * Reactor's default logs each such error at ERROR with a stack trace, which under overload floods the log and costs
 * CPU on the path being measured: log them at DEBUG instead. Errors of live requests are unaffected.
 */
@Component
class DroppedErrors : DisposableBean {
    init {
        Hooks.onErrorDropped { log.debug("error after the request was cancelled: {}", it.toString()) }
    }

    override fun destroy() {
        Hooks.resetOnErrorDropped()
    }

    private companion object {
        val log = LoggerFactory.getLogger(DroppedErrors::class.java)
    }
}
