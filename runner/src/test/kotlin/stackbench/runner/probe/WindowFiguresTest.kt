package stackbench.runner.probe

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.within
import org.junit.jupiter.api.Test
import stackbench.runner.ceiling.Ceilings
import stackbench.runner.results.Ceiling
import stackbench.runner.results.Fixtures

class WindowFiguresTest {
    private val pool64 = Ceiling(Ceilings.LITTLE, 127.0, "64 Dispatchers.IO threads ÷ 505 ms", concurrency = 64)

    @Test
    fun `a closed window behind a pool holds its answers over the pool in waves`() {
        // 127.7 req/s for 10 s (the fixture's window) = 1,277 answers in waves of 64
        assertThat(WindowFigures.waves(Fixtures.load(127.7), closed = true, ceiling = pool64)!!).isCloseTo(1277.0 / 64, within(1e-9))
    }

    @Test
    fun `no waves for an open load, a CPU-time ceiling, or no ceiling at all`() {
        assertThat(WindowFigures.waves(Fixtures.load(127.7), closed = false, ceiling = pool64)).isNull()
        assertThat(WindowFigures.waves(Fixtures.load(127.7), closed = true, ceiling = Ceiling(Ceilings.CPU_TIME, 1000.0, "1 CPU", concurrency = 64))).isNull()
        assertThat(WindowFigures.waves(Fixtures.load(127.7), closed = true, ceiling = null)).isNull()
        assertThat(WindowFigures.waves(null, closed = true, ceiling = pool64)).isNull()
    }
}
