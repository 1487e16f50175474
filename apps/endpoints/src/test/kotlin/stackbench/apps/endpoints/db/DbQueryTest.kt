package stackbench.apps.endpoints.db

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import stackbench.contract.BadParameterException
import stackbench.contract.DbOp

class DbQueryTest {

    @Test
    fun `op defaults to read, id to a drawn row and db-delay to nothing`() {
        assertThat(DbQuery.parse(null, null, null) { 4242 }).isEqualTo(DbQuery(DbOp.READ, 4242, 0))
        assertThat(DbQuery.parse("", "", "") { 7 }).isEqualTo(DbQuery(DbOp.READ, 7, 0))
    }

    @Test
    fun `given values are read as asked`() {
        val query = DbQuery.parse("write", "10000", "50") { error("not drawn when given") }
        assertThat(query).isEqualTo(DbQuery(DbOp.WRITE, 10_000, 50))
        assertThat(query.delaySeconds).isEqualTo(0.05)
    }

    @Test
    fun `a bad op, id or db-delay names its parameter`() {
        assertThatThrownBy { DbQuery.parse("delete", null, null) }
            .isInstanceOf(BadParameterException::class.java)
            .hasMessage("parameter 'op' = 'delete' is not a known op; allowed: read, write")
        assertThatThrownBy { DbQuery.parse(null, "0", null) }.hasMessage("parameter 'id' = '0' is out of range; allowed: 1..10000")
        assertThatThrownBy { DbQuery.parse(null, "10001", null) }.hasMessageContaining("'id' = '10001' is out of range")
        assertThatThrownBy { DbQuery.parse(null, null, "60001") }
            .hasMessage("parameter 'db-delay' = '60001' is out of range; allowed: 0..60000 ms")
        assertThatThrownBy { DbQuery.parse(null, null, "1.5") }.hasMessageContaining("'db-delay' = '1.5' is not a whole number")
    }

    @Test
    fun `drawn ids cover the table and stay inside it`() {
        val drawn = (1..200_000).map { DbQuery.randomId() }
        assertThat(drawn.min()).isEqualTo(1)
        assertThat(drawn.max()).isEqualTo(10_000)
    }
}
