package stackbench.apps.endpoints.db

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import stackbench.contract.DbOp

class ItemStatementsTest {

    @Test
    fun `a read without delay is the plain lookup by key`() {
        val bound = ItemStatements.select(DbQuery(DbOp.READ, 12, 0))
        assertThat(bound).isEqualTo(ItemStatements.Bound("select id, name, qty from item where id = \$1", listOf(12L)))
        assertThat(bound.jdbc()).isEqualTo(ItemStatements.Bound("select id, name, qty from item where id = ?", listOf(12L)))
    }

    @Test
    fun `a delay sleeps inside the read, in seconds`() {
        val bound = ItemStatements.select(DbQuery(DbOp.READ, 12, 50))
        assertThat(bound.sql).contains("pg_sleep(\$2)").contains("where i.id = \$1")
        assertThat(bound.values).containsExactly(12L, 0.05)
    }

    @Test
    fun `the JDBC form binds the values in the order their placeholders appear`() {
        val jdbc = ItemStatements.select(DbQuery(DbOp.READ, 12, 1500)).jdbc()
        assertThat(jdbc.sql).isEqualTo("select i.id, i.name, i.qty from item i cross join pg_sleep(?) where i.id = ?")
        assertThat(jdbc.values).containsExactly(1.5, 12L)
    }

    @Test
    fun `a write updates the row it then reads`() {
        val update = ItemStatements.update(DbQuery(DbOp.WRITE, 9, 0))
        assertThat(update.jdbc()).isEqualTo(ItemStatements.Bound("update item set qty = qty + 1, updated_at = now() where id = ?", listOf(9L)))
    }

    @Test
    fun `a placeholder without a value is refused`() {
        assertThatThrownBy { ItemStatements.Bound("select \$2", listOf(1L)).jdbc() }
            .hasMessage("'select \$2' has a placeholder beyond its 1 values")
    }
}
