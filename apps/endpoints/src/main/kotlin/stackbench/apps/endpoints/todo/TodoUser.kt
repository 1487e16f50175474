package stackbench.apps.endpoints.todo

import org.springframework.security.core.userdetails.User
import org.springframework.security.core.userdetails.ReactiveUserDetailsService
import org.springframework.security.core.userdetails.UserDetails
import org.springframework.security.core.userdetails.UserDetailsService
import org.springframework.security.core.userdetails.UsernameNotFoundException
import reactor.core.publisher.Mono
import stackbench.contract.Paths
import stackbench.contract.Todos

/** The one user of `/todo`, shared by the servlet and the reactive security configuration. */
internal object TodoUser {
    /** The paths the security filter chain applies to; nothing else goes through its filters. */
    val PATHS = arrayOf(Paths.TODO, "${Paths.TODO}/**")

    /**
     * `{noop}`: the password is compared as it is. HTTP Basic re-authenticates every request (the chain is
     * stateless), and a deliberately slow hash (bcrypt) would make the hash, not the stack, what /todo measures.
     */
    fun details(): UserDetails = User.withUsername(Todos.USER).password("{noop}${Todos.PASSWORD}").roles("USER").build()

    /*
     * The user stores are plain lookups, not Spring's InMemoryUserDetailsManager or MapReactiveUserDetailsService:
     * those are also password services, and Spring Security then "upgrades" a {noop} password to bcrypt after
     * the first login, so every later request pays a bcrypt check (about 65 ms of CPU here) and /todo measures
     * the hash. A fresh UserDetails per lookup, because authentication erases the credentials it was given.
     */

    /** The servlet stacks' user store. */
    fun servletUsers(): UserDetailsService = UserDetailsService { name ->
        if (name == Todos.USER) details() else throw UsernameNotFoundException(name)
    }

    /** WebFlux's user store. */
    fun reactiveUsers(): ReactiveUserDetailsService = ReactiveUserDetailsService { name ->
        if (name == Todos.USER) Mono.fromSupplier(::details) else Mono.empty()
    }
}
