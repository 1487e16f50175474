package stackbench.apps.webflux

import org.springframework.boot.autoconfigure.SpringBootApplication
import stackbench.apps.endpoints.Stackbench
import stackbench.apps.endpoints.db.BootDatabaseExclusions

/** Spring WebFlux on Reactor Netty, Spring Boot 4.1. The endpoints come from stackbench.apps.endpoints. */
@SpringBootApplication(
    scanBasePackages = ["stackbench.apps"],
    // the apps build their database pools themselves, only when given a URL (see BootDatabaseExclusions)
    excludeName = [
        BootDatabaseExclusions.BOOT3_DATASOURCE, BootDatabaseExclusions.BOOT3_R2DBC, BootDatabaseExclusions.BOOT3_R2DBC_HEALTH,
        BootDatabaseExclusions.BOOT3_R2DBC_METRICS, BootDatabaseExclusions.BOOT3_HIKARI_METRICS,
        BootDatabaseExclusions.BOOT4_DATASOURCE, BootDatabaseExclusions.BOOT4_R2DBC,
    ],
)
class WebFluxApplication

fun main(args: Array<String>) {
    Stackbench.run(WebFluxApplication::class.java, args)
}
