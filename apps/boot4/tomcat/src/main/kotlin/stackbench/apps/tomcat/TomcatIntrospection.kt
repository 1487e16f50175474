package stackbench.apps.tomcat

import org.springframework.boot.tomcat.TomcatWebServer
import org.springframework.boot.web.server.context.WebServerApplicationContext
import org.springframework.context.ApplicationContext
import org.springframework.stereotype.Component
import stackbench.apps.endpoints.info.Model
import stackbench.apps.endpoints.info.ServerDescription
import stackbench.apps.endpoints.info.ServerIntrospection
import stackbench.apps.endpoints.info.servers.TomcatServers

/** Reads the live Tomcat of Spring Boot 4.1 (org.springframework.boot.tomcat). */
@Component
class TomcatIntrospection(private val context: ApplicationContext) : ServerIntrospection {
    override val stack = "tomcat"
    override val model = Model.SERVLET

    override fun describe(virtualThreads: Boolean): ServerDescription {
        val server = (context as WebServerApplicationContext).webServer as TomcatWebServer
        return TomcatServers.describe(server.tomcat.service.findConnectors().first())
    }
}
