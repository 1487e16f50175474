package stackbench.apps.endpoints.todo

import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration
import org.springframework.security.config.Customizer
import org.springframework.security.config.web.server.ServerHttpSecurity
import org.springframework.security.core.userdetails.ReactiveUserDetailsService
import org.springframework.security.web.server.SecurityWebFilterChain
import org.springframework.security.web.server.context.NoOpServerSecurityContextRepository
import org.springframework.security.web.server.util.matcher.ServerWebExchangeMatchers

/** Spring Security on WebFlux: HTTP Basic, stateless, CSRF off, for `/todo` only. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
class ReactiveTodoSecurity {

    @Bean
    fun todoSecurityWebFilterChain(http: ServerHttpSecurity): SecurityWebFilterChain = http
        .securityMatcher(ServerWebExchangeMatchers.pathMatchers(*TodoUser.PATHS))
        .authorizeExchange { it.anyExchange().authenticated() }
        .httpBasic(Customizer.withDefaults())
        .csrf { it.disable() }
        .securityContextRepository(NoOpServerSecurityContextRepository.getInstance())
        .build()

    @Bean
    fun todoUsers(): ReactiveUserDetailsService = TodoUser.reactiveUsers()
}
