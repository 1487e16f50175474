package stackbench.apps.undertow

import org.springframework.boot.autoconfigure.SpringBootApplication
import stackbench.apps.endpoints.Stackbench

/** Spring MVC on Undertow, Spring Boot 3.5 (Spring Boot 4 has no Undertow support). */
@SpringBootApplication(scanBasePackages = ["stackbench.apps"])
class UndertowApplication

fun main(args: Array<String>) {
    Stackbench.run(UndertowApplication::class.java, args)
}
