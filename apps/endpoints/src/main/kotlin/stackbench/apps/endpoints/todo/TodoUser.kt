package stackbench.apps.endpoints.todo

import org.springframework.security.core.userdetails.User
import org.springframework.security.core.userdetails.UserDetails
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
}
