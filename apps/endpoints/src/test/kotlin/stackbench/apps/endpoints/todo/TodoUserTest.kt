package stackbench.apps.endpoints.todo

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import org.springframework.security.core.userdetails.ReactiveUserDetailsPasswordService
import org.springframework.security.core.userdetails.UserDetailsPasswordService
import org.springframework.security.core.userdetails.UsernameNotFoundException
import stackbench.contract.Todos

class TodoUserTest {
    /** Were they password services, Spring Security would re-encode the {noop} password with bcrypt after the first login. */
    @Test
    fun `the user stores are not password services, so the password is never upgraded to bcrypt`() {
        assertThat(TodoUser.servletUsers()).isNotInstanceOf(UserDetailsPasswordService::class.java)
        assertThat(TodoUser.reactiveUsers()).isNotInstanceOf(ReactiveUserDetailsPasswordService::class.java)
    }

    @Test
    fun `each lookup gives a fresh user with the noop password, and an unknown name none`() {
        val users = TodoUser.servletUsers()
        val first = users.loadUserByUsername(Todos.USER)
        assertThat(first.password).isEqualTo("{noop}${Todos.PASSWORD}")
        assertThat(users.loadUserByUsername(Todos.USER)).isNotSameAs(first)
        assertThatThrownBy { users.loadUserByUsername("nobody") }.isInstanceOf(UsernameNotFoundException::class.java)
        assertThat(TodoUser.reactiveUsers().findByUsername(Todos.USER).block()!!.password).isEqualTo("{noop}${Todos.PASSWORD}")
        assertThat(TodoUser.reactiveUsers().findByUsername("nobody").block()).isNull()
    }
}
