package stackbench.apps.endpoints.info

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

class LibraryPoolsTest {
    private val none: (String) -> String? = { null }

    @Test
    fun `Dispatchers Default is max(2, processors) unless set`() {
        assertThat(LibraryPools.dispatchersDefault(1, none).size).isEqualTo(2)
        assertThat(LibraryPools.dispatchersDefault(8, none).size).isEqualTo(8)
        assertThat(LibraryPools.dispatchersDefault(1, none).source).isEqualTo("default")
        val set = LibraryPools.dispatchersDefault(1, mapOf(LibraryPools.DEFAULT_CORE_POOL_SIZE to "5")::get)
        assertThat(set.size).isEqualTo(5)
        assertThat(set.source).isEqualTo("property")
    }

    @Test
    fun `Dispatchers IO is max(64, processors) unless set`() {
        assertThat(LibraryPools.dispatchersIo(1, none).size).isEqualTo(64)
        assertThat(LibraryPools.dispatchersIo(100, none).size).isEqualTo(100)
        assertThat(LibraryPools.dispatchersIo(1, mapOf(LibraryPools.IO_PARALLELISM to "8")::get).size).isEqualTo(8)
    }

    @Test
    fun `Reactor's sizes are its constants, with the source of the property`() {
        assertThat(LibraryPools.reactorParallel(3, none)).extracting("size", "source").containsExactly(3, "default")
        val elastic = LibraryPools.reactorBoundedElastic(40, 100000, mapOf(
            LibraryPools.BOUNDED_ELASTIC_SIZE to "40", LibraryPools.BOUNDED_ELASTIC_VIRTUAL to "true")::get)
        assertThat(elastic.source).isEqualTo("property")
        assertThat(elastic.kind).isEqualTo("virtual threads")
    }

    @Test
    fun `an unreadable value falls back to the default rule`() {
        val pool = LibraryPools.dispatchersDefault(4, mapOf(LibraryPools.DEFAULT_CORE_POOL_SIZE to "lots")::get)
        assertThat(pool.size).isEqualTo(4)
        assertThat(pool.source).isEqualTo("default")
    }
}
