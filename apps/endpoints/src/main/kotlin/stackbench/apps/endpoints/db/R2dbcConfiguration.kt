package stackbench.apps.endpoints.db

import io.r2dbc.pool.ConnectionPool
import io.r2dbc.pool.ConnectionPoolConfiguration
import io.r2dbc.spi.ConnectionFactories
import io.r2dbc.spi.ConnectionFactoryOptions
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty
import org.springframework.context.annotation.Bean
import org.springframework.context.annotation.Configuration
import org.springframework.core.env.Environment
import stackbench.apps.endpoints.config.StackbenchProperties
import stackbench.apps.endpoints.info.Kind
import stackbench.apps.endpoints.info.PoolReporter
import stackbench.apps.endpoints.info.Source
import stackbench.contract.Database
import stackbench.contract.Pool
import java.time.Duration

/**
 * The R2DBC database of `r2dbc`, only when the app is given `spring.r2dbc.url` (`r2dbc:postgresql://...`, and its
 * username and password): r2dbc-pool over r2dbc-postgresql, `stackbench.db.pool` connections, all opened at start,
 * a request waiting at most [ACQUIRE_TIMEOUT] for one (the same as HikariCP's). Without the URL nothing here exists.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(Database.Property.R2DBC_URL)
class R2dbcConfiguration {

    @Bean(destroyMethod = "dispose")
    fun r2dbcPool(environment: Environment, properties: StackbenchProperties): ConnectionPool {
        val pool = ConnectionPool(poolConfiguration(environment, properties.db.pool))
        pool.warmup().block(ACQUIRE_TIMEOUT)
        return pool
    }

    @Bean
    fun r2dbcItems(pool: ConnectionPool) = R2dbcItems(pool)

    @Bean
    fun r2dbcPoolReporter(pool: ConnectionPool) = PoolReporter {
        val size = pool.metrics.map { it.maxAllocatedSize }.orElse(null)
        listOf(Pool(POOL, size, Kind.CONNECTIONS, Source.RUNTIME,
            "r2dbc-pool maxSize of r2dbc: ${Database.Property.POOL} (default ${Database.DEFAULT_POOL})"))
    }

    companion object {
        const val POOL = "db.r2dbc.connections"
        val ACQUIRE_TIMEOUT: Duration = Duration.ofSeconds(30)

        fun poolConfiguration(environment: Environment, pool: Int): ConnectionPoolConfiguration {
            val url = environment.getRequiredProperty(Database.Property.R2DBC_URL)
            val options = ConnectionFactoryOptions.parse(url).mutate().apply {
                environment.getProperty(Database.Property.R2DBC_USERNAME)?.let { option(ConnectionFactoryOptions.USER, it) }
                environment.getProperty(Database.Property.R2DBC_PASSWORD)?.let { option(ConnectionFactoryOptions.PASSWORD, it) }
            }.build()
            require(options.getValue(ConnectionFactoryOptions.DRIVER) != "pool") {
                "${Database.Property.R2DBC_URL} = '$url' names r2dbc-pool itself; give the driver's URL (r2dbc:postgresql://...): the app pools it"
            }
            return ConnectionPoolConfiguration.builder(ConnectionFactories.get(options))
                .name("stackbench-r2dbc")
                .initialSize(pool)
                .maxSize(pool)
                .maxAcquireTime(ACQUIRE_TIMEOUT)
                .build()
        }
    }
}
