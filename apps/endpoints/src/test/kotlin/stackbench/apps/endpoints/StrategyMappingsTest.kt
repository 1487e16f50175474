package stackbench.apps.endpoints

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.web.bind.annotation.GetMapping
import stackbench.apps.endpoints.cpu.CpuController
import stackbench.apps.endpoints.downstream.DownstreamController
import stackbench.apps.endpoints.io.IoController
import stackbench.contract.CpuStrategy
import stackbench.contract.DownstreamClient
import stackbench.contract.IoStrategy
import stackbench.contract.Paths
import stackbench.contract.Strategy
import java.lang.reflect.Modifier

/** Each strategy of the contract has its own handler, and every family a fallback that answers 400. */
class StrategyMappingsTest {

    private fun mappings(controller: Class<*>): List<String> =
        controller.declaredMethods
            .filter { !Modifier.isStatic(it.modifiers) } // not the static twins Kotlin adds for open suspend functions
            .mapNotNull { it.getAnnotation(GetMapping::class.java) }
            .flatMap { it.value.toList() }

    private fun check(controller: Class<*>, prefix: String, strategies: List<Strategy>, fallback: String) {
        assertThat(mappings(controller))
            .containsExactlyInAnyOrderElementsOf(strategies.map { "$prefix${it.id}" } + fallback)
    }

    @Test
    fun `every CPU strategy is mapped`() = check(CpuController::class.java, "/cpu/", CpuStrategy.entries, Paths.CPU)

    @Test
    fun `every I-O strategy is mapped`() = check(IoController::class.java, "/io/", IoStrategy.entries, Paths.IO)

    @Test
    fun `every downstream client is mapped`() =
        check(DownstreamController::class.java, "/downstream/", DownstreamClient.entries, Paths.DOWNSTREAM)

    @Test
    fun `the defaults bind to the loopback address and expose only health`() {
        assertThat(Stackbench.DEFAULTS)
            .containsEntry("server.address", "127.0.0.1")
            .containsEntry("management.endpoints.web.exposure.include", "health")
    }
}
