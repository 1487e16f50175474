package stackbench.apps.undertow

import org.springframework.boot.autoconfigure.SpringBootApplication
import stackbench.apps.endpoints.Stackbench
import stackbench.apps.endpoints.db.BootDatabaseExclusions

/** Spring MVC on Undertow, Spring Boot 3.5 (Spring Boot 4 has no Undertow support). */
@SpringBootApplication(
    scanBasePackages = ["stackbench.apps"],
    // the apps build their database pools themselves, only when given a URL (see BootDatabaseExclusions)
    excludeName = [
        BootDatabaseExclusions.BOOT3_DATASOURCE, BootDatabaseExclusions.BOOT3_R2DBC, BootDatabaseExclusions.BOOT3_R2DBC_HEALTH,
        BootDatabaseExclusions.BOOT3_R2DBC_METRICS, BootDatabaseExclusions.BOOT3_HIKARI_METRICS,
        BootDatabaseExclusions.BOOT4_DATASOURCE, BootDatabaseExclusions.BOOT4_R2DBC,
    ],
)
class UndertowApplication

fun main(args: Array<String>) {
    Stackbench.run(UndertowApplication::class.java, args)
}
