package stackbench.apps.endpoints.db

/**
 * Spring Boot's own JDBC and R2DBC auto-configuration, excluded from every app ([ALL], as the lab's default
 * `spring.autoconfigure.exclude` in [stackbench.apps.endpoints.Stackbench.DEFAULTS]):
 * the apps build their pools themselves, only when given a URL ([JdbcConfiguration], [R2dbcConfiguration]). Left in,
 * Boot 3.5's R2DBC auto-configuration (in spring-boot-autoconfigure, active as soon as a driver is on the class path)
 * fails the start of an app given no `spring.r2dbc.url`, and its pool metrics would time every connection acquire.
 * Boot 4.1 split these into modules (spring-boot-jdbc, spring-boot-r2dbc) that the apps do not depend on; their names
 * are listed too so that adding one later cannot bring a second pool in. A name that is not on the class path is ignored.
 */
object BootDatabaseExclusions {
    // Spring Boot 3.5: spring-boot-autoconfigure and spring-boot-actuator-autoconfigure
    const val BOOT3_DATASOURCE = "org.springframework.boot.autoconfigure.jdbc.DataSourceAutoConfiguration"
    const val BOOT3_R2DBC = "org.springframework.boot.autoconfigure.r2dbc.R2dbcAutoConfiguration"
    const val BOOT3_R2DBC_HEALTH = "org.springframework.boot.actuate.autoconfigure.r2dbc.ConnectionFactoryHealthContributorAutoConfiguration"
    const val BOOT3_R2DBC_METRICS = "org.springframework.boot.actuate.autoconfigure.metrics.r2dbc.ConnectionPoolMetricsAutoConfiguration"
    const val BOOT3_HIKARI_METRICS = "org.springframework.boot.actuate.autoconfigure.metrics.jdbc.DataSourcePoolMetricsAutoConfiguration"

    // Spring Boot 4.1: the spring-boot-jdbc and spring-boot-r2dbc modules
    const val BOOT4_DATASOURCE = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration"
    const val BOOT4_R2DBC = "org.springframework.boot.r2dbc.autoconfigure.R2dbcAutoConfiguration"

    /** Every name above, in the form `spring.autoconfigure.exclude` takes. */
    val ALL: String = listOf(
        BOOT3_DATASOURCE, BOOT3_R2DBC, BOOT3_R2DBC_HEALTH, BOOT3_R2DBC_METRICS, BOOT3_HIKARI_METRICS, BOOT4_DATASOURCE, BOOT4_R2DBC,
    ).joinToString(",")
}
