package stackbench.apps.endpoints.db

import com.zaxxer.hikari.HikariConfig
import com.zaxxer.hikari.HikariDataSource
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

/**
 * The JDBC database of `jdbc` and `jdbc-offload`, only when the app is given `spring.datasource.url` (and its
 * username and password): a HikariCP pool of `stackbench.db.pool` connections, all opened at start (minimumIdle =
 * maximumPoolSize, HikariCP's own recommendation), a request waiting at most [CONNECTION_TIMEOUT_MS] for one.
 * Without the URL nothing here exists and the app starts as it does without a database.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(Database.Property.JDBC_URL)
class JdbcConfiguration {

    @Bean(destroyMethod = "close")
    fun jdbcDataSource(environment: Environment, properties: StackbenchProperties): HikariDataSource =
        HikariDataSource(hikariConfig(environment, properties.db.pool))

    @Bean
    fun jdbcItems(dataSource: HikariDataSource) = JdbcItems(dataSource)

    @Bean
    fun jdbcPool(dataSource: HikariDataSource, properties: StackbenchProperties) = PoolReporter {
        listOf(Pool(POOL, dataSource.maximumPoolSize, Kind.CONNECTIONS, Source.RUNTIME,
            "HikariCP maximumPoolSize of jdbc, jdbc-offload: ${Database.Property.POOL} (default ${Database.DEFAULT_POOL})"))
    }

    companion object {
        const val POOL = "db.hikari.connections"
        const val CONNECTION_TIMEOUT_MS = 30_000L

        fun hikariConfig(environment: Environment, pool: Int) = HikariConfig().apply {
            poolName = "stackbench-jdbc"
            jdbcUrl = environment.getRequiredProperty(Database.Property.JDBC_URL)
            username = environment.getProperty(Database.Property.JDBC_USERNAME)
            password = environment.getProperty(Database.Property.JDBC_PASSWORD)
            maximumPoolSize = pool
            minimumIdle = pool
            connectionTimeout = CONNECTION_TIMEOUT_MS
        }
    }
}
