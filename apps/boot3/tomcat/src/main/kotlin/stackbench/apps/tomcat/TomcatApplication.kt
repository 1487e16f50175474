package stackbench.apps.tomcat

import org.springframework.boot.autoconfigure.SpringBootApplication
import stackbench.apps.endpoints.Stackbench

/** Spring MVC on Tomcat, Spring Boot 3.5. The endpoints come from stackbench.apps.endpoints. */
@SpringBootApplication(scanBasePackages = ["stackbench.apps"])
class TomcatApplication

fun main(args: Array<String>) {
    Stackbench.run(TomcatApplication::class.java, args)
}
