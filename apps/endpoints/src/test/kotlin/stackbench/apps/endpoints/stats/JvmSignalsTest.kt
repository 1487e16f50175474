package stackbench.apps.endpoints.stats

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

class JvmSignalsTest {
    @Volatile
    private var sink: Any? = null

    @Test
    fun `allocated bytes grow by at least what a thread allocated (on JDK 21 and newer)`() {
        val before = JvmSignals.allocatedBytes()
        assertThat(before).`as`("this JVM is ${Runtime.version()}").isNotNull()
        repeat(64) { sink = ByteArray(1 shl 20) }
        val after = JvmSignals.allocatedBytes()!!
        assertThat(after - before!!).isGreaterThanOrEqualTo(64L shl 20)
    }
}
