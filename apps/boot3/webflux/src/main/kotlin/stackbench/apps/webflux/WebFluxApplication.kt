package stackbench.apps.webflux

import org.springframework.boot.autoconfigure.SpringBootApplication
import stackbench.apps.endpoints.Stackbench

/** Spring WebFlux on Reactor Netty, Spring Boot 3.5. The endpoints come from stackbench.apps.endpoints. */
@SpringBootApplication(scanBasePackages = ["stackbench.apps"])
class WebFluxApplication

fun main(args: Array<String>) {
    Stackbench.run(WebFluxApplication::class.java, args)
}
