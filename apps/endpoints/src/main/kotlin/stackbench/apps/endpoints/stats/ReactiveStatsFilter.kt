package stackbench.apps.endpoints.stats

import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication
import org.springframework.core.Ordered
import org.springframework.stereotype.Component
import org.springframework.web.server.ServerWebExchange
import org.springframework.web.server.WebFilter
import org.springframework.web.server.WebFilterChain
import reactor.core.publisher.Mono

/** Counts completed exchanges on WebFlux: when the rest of the filter chain (handler and body write) terminates. */
@Component
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
class ReactiveStatsFilter(private val completed: CompletedExchanges) : WebFilter, Ordered {

    override fun filter(exchange: ServerWebExchange, chain: WebFilterChain): Mono<Void> {
        if (!CompletedExchanges.counts(exchange.request.path.value())) return chain.filter(exchange)
        return chain.filter(exchange).doFinally { completed.increment() }
    }

    override fun getOrder(): Int = Ordered.HIGHEST_PRECEDENCE
}
