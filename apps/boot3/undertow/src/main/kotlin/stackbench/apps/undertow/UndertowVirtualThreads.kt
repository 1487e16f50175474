package stackbench.apps.undertow

import org.springframework.boot.autoconfigure.condition.ConditionalOnThreading
import org.springframework.boot.autoconfigure.thread.Threading
import org.springframework.boot.web.embedded.undertow.UndertowDeploymentInfoCustomizer
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration
import java.util.concurrent.Executors

/**
 * `spring.threads.virtual.enabled=true` on Undertow, which Spring Boot supports only for Tomcat and Jetty: the
 * servlet deployment runs each request on a new virtual thread instead of dispatching it to the XNIO worker pool.
 * The XNIO I/O threads stay platform threads, as Tomcat's poller and Jetty's selectors do.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnThreading(Threading.VIRTUAL)
class UndertowVirtualThreads {

    @Bean
    fun undertowVirtualThreadsCustomizer() = UndertowDeploymentInfoCustomizer { deployment ->
        val executor = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("undertow-", 0).factory())
        deployment.executor = executor
        deployment.asyncExecutor = executor
    }
}
