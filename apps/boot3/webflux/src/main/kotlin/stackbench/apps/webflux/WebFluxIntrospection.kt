package stackbench.apps.webflux

import org.springframework.stereotype.Component
import stackbench.apps.endpoints.info.Model
import stackbench.apps.endpoints.info.ServerDescription
import stackbench.apps.endpoints.info.ServerIntrospection
import stackbench.apps.endpoints.info.servers.ReactorNettyServers

/** Reads the live Reactor Netty loops of WebFlux. */
@Component
class WebFluxIntrospection : ServerIntrospection {
    override val stack = "webflux"
    override val model = Model.REACTIVE

    override fun describe(virtualThreads: Boolean): ServerDescription = ReactorNettyServers.describe(virtualThreads)
}
