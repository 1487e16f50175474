package stackbench.apps.endpoints

import org.springframework.boot.SpringApplication
import org.springframework.context.ConfigurableApplicationContext

/**
 * Starts a stack's application with the lab's defaults. The defaults are Spring Boot "default properties":
 * the lowest precedence there is, so application.properties, `-D` system properties and `--x=y` arguments
 * all override them.
 */
object Stackbench {

    /** The lab's defaults, in one place (docs/apps.md lists them). */
    val DEFAULTS: Map<String, Any> = linkedMapOf(
        // the runner and the tests reach the app on the loopback address
        "server.address" to "127.0.0.1",
        // readiness for the runner; nothing else of Actuator is exposed
        "management.endpoints.web.exposure.include" to "health",
        // a production-like console: no banner, Spring's INFO start-up log (with its "Started ... in" line)
        "spring.main.banner-mode" to "off",
        // Spring MVC async requests (CompletableFuture, Mono, suspend) answer within the longest downstream
        // deadline (60 s delay + 30 s) instead of the servlet container's 30 s default
        "spring.mvc.async.request-timeout" to "120s",
        // the apps build their database pools themselves, only when given a URL: Boot's own are left out
        "spring.autoconfigure.exclude" to stackbench.apps.endpoints.db.BootDatabaseExclusions.ALL,
    )

    fun run(application: Class<*>, args: Array<String>): ConfigurableApplicationContext =
        SpringApplication(application).apply {
            setDefaultProperties(DEFAULTS)
            // "Started TomcatApplication in ..." rather than the Kotlin file class of main()
            setMainApplicationClass(application)
        }.run(*args)
}
