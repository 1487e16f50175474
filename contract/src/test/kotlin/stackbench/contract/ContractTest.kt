package stackbench.contract

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import org.junit.jupiter.params.ParameterizedTest
import org.junit.jupiter.params.provider.CsvSource

class ContractTest {

    @ParameterizedTest(name = "sieve: π({0}) = {1}")
    @CsvSource("0,0", "1,0", "2,1", "100,25", "1000,168", "10000,1229", "50000,5133", "100000,9592", "200000,17984", "300000,25997", "10000000,664579")
    fun `the sieve counts primes independently of trial division`(limit: Long, count: Int) {
        assertThat(PrimeCounts.upTo(limit)).isEqualTo(count)
    }

    @Test
    fun `parameters parse within range and name what is wrong outside it`() {
        assertThat(Parameter.LIMIT.parse("1000")).isEqualTo(1000)
        assertThat(Parameter.BATCH.parse(null, default = 1000)).isEqualTo(1000)
        assertThatThrownBy { Parameter.LIMIT.parse("abc") }
            .isInstanceOf(BadParameterException::class.java)
            .hasMessage("parameter 'limit' = 'abc' is not a whole number; allowed: 0..10000000")
        assertThatThrownBy { Parameter.DELAY.parse("-5") }
            .hasMessage("parameter 'delay' = '-5' is out of range; allowed: 0..60000 ms")
        assertThatThrownBy { Parameter.DELAY.parse("60001") }.hasMessageContaining("out of range")
        assertThatThrownBy { Parameter.BATCH.parse("0") }.hasMessageContaining("'batch' = '0' is out of range")
        assertThatThrownBy { Parameter.LIMIT.parse(null) }.hasMessage("parameter 'limit' is required; allowed: 0..10000000")
    }

    @Test
    fun `a bad parameter becomes a body that names it`() {
        val body = BadParameterException(Parameter.LIMIT, "x", "is not a whole number").body()
        assertThat(body.error).isEqualTo("bad_parameter")
        assertThat(body.parameter).isEqualTo("limit")
        assertThat(body.value).isEqualTo("x")
        assertThat(body.allowed).isEqualTo("0..10000000")
    }

    @Test
    fun `strategy ids are unique and found by id`() {
        for (all in listOf(CpuStrategy.entries, IoStrategy.entries, DownstreamClient.entries, DbStrategy.entries)) {
            assertThat(all.map { it.id }).doesNotHaveDuplicates()
        }
        assertThat(CpuStrategy.byId("mono-parallel")).isEqualTo(CpuStrategy.MONO_PARALLEL)
        assertThat(IoStrategy.byId("nope")).isNull()
        assertThat(DownstreamClient.byId("rest-client")).isEqualTo(DownstreamClient.REST_CLIENT)
        assertThat(DbStrategy.byId("jdbc-offload")).isEqualTo(DbStrategy.JDBC_OFFLOAD)
    }

    @Test
    fun `the db op defaults to read and names the known ops when unknown`() {
        assertThat(DbOp.parse(null)).isEqualTo(DbOp.READ)
        assertThat(DbOp.parse("write")).isEqualTo(DbOp.WRITE)
        val e = org.junit.jupiter.api.assertThrows<BadParameterException> { DbOp.parse("WRITE") }
        assertThat(e.body()).isEqualTo(ErrorBody("bad_parameter", "op", "WRITE", "read, write",
            "parameter 'op' = 'WRITE' is not a known op; allowed: read, write"))
    }

    @Test
    fun `the db parameters cover the table's ids and the delay cap`() {
        assertThat(Parameter.ID.parse("1")).isEqualTo(1)
        assertThat(Parameter.ID.parse("10000")).isEqualTo(Database.ITEMS)
        assertThatThrownBy { Parameter.ID.parse("10001") }.hasMessage("parameter 'id' = '10001' is out of range; allowed: 1..10000")
        assertThat(Parameter.DB_DELAY.parse(null, default = 0)).isEqualTo(0)
        assertThat(Parameter.DB_DELAY.allowed).isEqualTo("0..60000 ms")
    }

    @Test
    fun `the todo list is fixed and a posted item gets the server's description`() {
        assertThat(Todos.LIST).hasSize(10)
        val posted = Todo(42, "write tests", null, false)
        assertThat(Todos.created(posted)).isEqualTo(Todo(42, "write tests", Todos.SERVER_DESCRIPTION, false))
    }
}
