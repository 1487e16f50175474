package stackbench.apps.endpoints.cpu

import stackbench.contract.Parameter
import stackbench.contract.PrimesAnswer
import stackbench.workloads.Primes

/** The query of `/cpu/{strategy}`, read from raw strings: `limit` (required) and `batch` (default 1000, used by `coop`). */
class CpuParams private constructor(val limit: Int, val batch: Int) {

    /** The primes work and its answer, on whatever thread calls it. */
    fun primes(): PrimesAnswer = answer(Primes.upTo(limit))

    fun answer(primes: List<Int>): PrimesAnswer = PrimesAnswer(limit.toLong(), primes.size)

    companion object {
        const val DEFAULT_BATCH = 1000L

        fun parse(limit: String?, batch: String?): CpuParams =
            CpuParams(Parameter.LIMIT.parse(limit).toInt(), Parameter.BATCH.parse(batch, DEFAULT_BATCH).toInt())
    }
}
