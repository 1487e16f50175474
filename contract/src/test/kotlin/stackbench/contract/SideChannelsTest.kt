package stackbench.contract

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

class SideChannelsTest {

    @Test
    fun `an unknown strategy names the path variable and lists the known ids`() {
        val body = PathVariable.STRATEGY.unknown("nope", IoStrategy.entries).body()
        assertThat(body.parameter).isEqualTo("strategy")
        assertThat(body.value).isEqualTo("nope")
        assertThat(body.allowed).startsWith("blocking, completable-future, dispatchers-io")
        assertThat(body.message).isEqualTo("parameter 'strategy' = 'nope' is not a known id; allowed: ${body.allowed}")
    }

    @Test
    fun `an unknown client is named as such`() {
        assertThat(PathVariable.CLIENT.unknown("x", DownstreamClient.entries).body().parameter).isEqualTo("client")
    }
}
