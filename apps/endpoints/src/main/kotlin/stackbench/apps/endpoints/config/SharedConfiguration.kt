package stackbench.apps.endpoints.config

import org.springframework.boot.context.properties.EnableConfigurationProperties
import org.springframework.context.annotation.Configuration

/** Binds the `stackbench.*` properties; the beans themselves are components of their feature packages. */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(StackbenchProperties::class)
class SharedConfiguration
