package stackbench.apps.jetty

import org.springframework.boot.autoconfigure.SpringBootApplication
import stackbench.apps.endpoints.Stackbench

/** Spring MVC on Jetty, Spring Boot 4.1. The endpoints come from stackbench.apps.endpoints. */
@SpringBootApplication(scanBasePackages = ["stackbench.apps"])
class JettyApplication

fun main(args: Array<String>) {
    Stackbench.run(JettyApplication::class.java, args)
}
