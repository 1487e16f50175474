package stackbench.apps.endpoints.todo

import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration
import org.springframework.security.config.Customizer
import org.springframework.security.config.annotation.web.builders.HttpSecurity
import org.springframework.security.config.http.SessionCreationPolicy
import org.springframework.security.core.userdetails.UserDetailsService
import org.springframework.security.web.SecurityFilterChain

/** Spring Security on the servlet stacks: HTTP Basic, stateless, CSRF off, for `/todo` only. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
class ServletTodoSecurity {

    @Bean
    fun todoSecurityFilterChain(http: HttpSecurity): SecurityFilterChain = http
        .securityMatcher(*TodoUser.PATHS)
        .authorizeHttpRequests { it.anyRequest().authenticated() }
        .httpBasic(Customizer.withDefaults())
        .csrf { it.disable() }
        .sessionManagement { it.sessionCreationPolicy(SessionCreationPolicy.STATELESS) }
        .build()

    @Bean
    fun todoUsers(): UserDetailsService = TodoUser.servletUsers()
}
