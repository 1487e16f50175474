package stackbench.apps.contract

import org.assertj.core.api.SoftAssertions
import stackbench.contract.CpuStrategy
import stackbench.contract.DbOp
import stackbench.contract.DbStrategy
import stackbench.contract.DownstreamClient
import stackbench.contract.ErrorBody
import stackbench.contract.IoStrategy
import stackbench.contract.Parameter
import stackbench.contract.PathVariable

/** The bad-input matrix: every endpoint and strategy answers 400 with an [ErrorBody] naming what is wrong. */
object BadInputChecks {
    private data class Case(val path: String, val parameter: String, val allowed: String)

    /** Missing, empty, not a number, negative, above the cap, not whole. */
    private fun badValues(prefix: String, parameter: Parameter, aboveCap: String): List<Case> =
        listOf("", "=", "=abc", "=-1", "=$aboveCap", "=1.5")
            .map { Case(if (it.isEmpty()) prefix else "$prefix?${parameter.id}$it", parameter.id, parameter.allowed) }

    private val CASES: List<Case> =
        CpuStrategy.entries.flatMap { badValues("/cpu/${it.id}", Parameter.LIMIT, "10000001") } +
            CpuStrategy.entries.map { Case("/cpu/${it.id}?limit=10&batch=0", "batch", Parameter.BATCH.allowed) } +
            listOf(Case("/cpu/coop?limit=10&batch=x", "batch", Parameter.BATCH.allowed)) +
            IoStrategy.entries.flatMap { badValues("/io/${it.id}", Parameter.DELAY, "60001") } +
            DownstreamClient.entries.flatMap { badValues("/downstream/${it.id}", Parameter.DELAY, "60001") } +
            // /db checks its parameters before its database: these answer 400 with or without one (a missing id is drawn)
            DbStrategy.entries.flatMap { s ->
                listOf("=abc", "=0", "=10001", "=1.5").map { Case("/db/${s.id}?id$it", Parameter.ID.id, Parameter.ID.allowed) } +
                    listOf("=abc", "=-1", "=60001").map { Case("/db/${s.id}?db-delay$it", Parameter.DB_DELAY.id, Parameter.DB_DELAY.allowed) } +
                    Case("/db/${s.id}?op=delete", DbOp.PARAMETER, DbOp.entries.joinToString(", ") { it.id })
            } +
            listOf(
                Case("/cpu/nope?limit=10", PathVariable.STRATEGY.id, PathVariable.allowedIds(CpuStrategy.entries)),
                Case("/cpu/DIRECT?limit=10", PathVariable.STRATEGY.id, PathVariable.allowedIds(CpuStrategy.entries)),
                Case("/io/nope?delay=10", PathVariable.STRATEGY.id, PathVariable.allowedIds(IoStrategy.entries)),
                Case("/downstream/nope?delay=10", PathVariable.CLIENT.id, PathVariable.allowedIds(DownstreamClient.entries)),
                Case("/db/nope", PathVariable.STRATEGY.id, PathVariable.allowedIds(DbStrategy.entries)),
            )

    fun check(soft: SoftAssertions, http: Http) {
        for (case in CASES) {
            val answer = http.get(case.path)
            soft.assertThat(answer.status).`as`("%s: %s", case.path, answer).isEqualTo(400)
            if (answer.status != 400) continue
            val body = answer.json<ErrorBody>()
            soft.assertThat(body.error).`as`(case.path).isEqualTo("bad_parameter")
            soft.assertThat(body.parameter).`as`(case.path).isEqualTo(case.parameter)
            soft.assertThat(body.allowed).`as`(case.path).isEqualTo(case.allowed)
        }
    }
}
