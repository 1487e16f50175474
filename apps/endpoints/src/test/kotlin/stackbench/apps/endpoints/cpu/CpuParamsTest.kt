package stackbench.apps.endpoints.cpu

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import stackbench.contract.BadParameterException
import stackbench.contract.PrimesAnswer

class CpuParamsTest {

    @Test
    fun `batch defaults to 1000`() {
        val params = CpuParams.parse("100", null)
        assertThat(params.limit).isEqualTo(100)
        assertThat(params.batch).isEqualTo(1000)
        assertThat(params.primes()).isEqualTo(PrimesAnswer(100, 25))
    }

    @Test
    fun `limit is required and batch is checked even where unused`() {
        assertThatThrownBy { CpuParams.parse(null, null) }
            .isInstanceOf(BadParameterException::class.java).hasMessageContaining("'limit' is required")
        assertThatThrownBy { CpuParams.parse("10", "0") }.hasMessageContaining("'batch' = '0' is out of range")
        assertThatThrownBy { CpuParams.parse("10000001", null) }.hasMessageContaining("'limit' = '10000001' is out of range")
    }

    @Test
    fun `the answer counts the primes it is given`() {
        assertThat(CpuParams.parse("10", "3").answer(listOf(2, 3, 5, 7))).isEqualTo(PrimesAnswer(10, 4))
    }
}
