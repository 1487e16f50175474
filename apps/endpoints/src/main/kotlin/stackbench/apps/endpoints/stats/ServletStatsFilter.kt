package stackbench.apps.endpoints.stats

import jakarta.servlet.AsyncEvent
import jakarta.servlet.AsyncListener
import jakarta.servlet.DispatcherType
import jakarta.servlet.Filter
import jakarta.servlet.FilterChain
import jakarta.servlet.ServletRequest
import jakarta.servlet.ServletResponse
import jakarta.servlet.http.HttpServletRequest
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication
import org.springframework.boot.web.servlet.FilterRegistrationBean
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration
import org.springframework.core.Ordered

/**
 * Counts completed exchanges on the servlet stacks: when the request dispatch returns, or, for an async request
 * (CompletableFuture, Mono, suspend handlers), when its AsyncContext completes.
 */
class ServletStatsFilter(private val completed: CompletedExchanges) : Filter {
    private val onComplete = object : AsyncListener {
        override fun onComplete(event: AsyncEvent) = completed.increment()
        override fun onTimeout(event: AsyncEvent) = Unit
        override fun onError(event: AsyncEvent) = Unit
        override fun onStartAsync(event: AsyncEvent) = Unit
    }

    override fun doFilter(request: ServletRequest, response: ServletResponse, chain: FilterChain) {
        if (!CompletedExchanges.counts((request as HttpServletRequest).requestURI)) {
            chain.doFilter(request, response)
            return
        }
        try {
            chain.doFilter(request, response)
        } finally {
            if (request.isAsyncStarted) request.asyncContext.addListener(onComplete) else completed.increment()
        }
    }
}

@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
class ServletStatsConfiguration {

    /** First in the chain, on REQUEST dispatches only: each exchange is counted once. */
    @Bean
    fun servletStatsFilter(completed: CompletedExchanges): FilterRegistrationBean<ServletStatsFilter> =
        FilterRegistrationBean(ServletStatsFilter(completed)).apply {
            order = Ordered.HIGHEST_PRECEDENCE
            setDispatcherTypes(DispatcherType.REQUEST)
            addUrlPatterns("/*")
        }
}
