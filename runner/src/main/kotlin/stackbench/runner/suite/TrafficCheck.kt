package stackbench.runner.suite

import stackbench.runner.catalog.DriverSpec
import stackbench.runner.catalog.TrafficSupport
import stackbench.runner.yaml.Problems

/**
 * Whether the suite's driver sends its fed and mixed requests ([Traffic]), from the driver's catalog entry
 * ([DriverSpec.traffic]): checked when the suite is read, at the endpoint's `feed:` or `mix:`, so a run never starts a
 * load its driver would send wrong. docs/suite-format.md has the table of what each driver supports.
 */
object TrafficCheck {
    /** Why [driver] cannot send [traffic] under [model], or null when it can. */
    fun refusal(driver: DriverSpec, model: LoadModel, traffic: Traffic): String? {
        val can = driver.traffic
        fun why(key: String) = can.why[key] ?: "${driver.id} does not"
        return when {
            model is LoadModel.Scenario ->
                "a scenario sends its own steps (load.scenario): feed: and mix: apply to closed and open cells; drop the scenario, or the feed and mix"
            traffic.mixed && !can.mixes -> why(TrafficSupport.MIX)
            traffic.feeds.isNotEmpty() && can.picks.isEmpty() -> why(TrafficSupport.FEED)
            traffic.picks.any { it.id !in can.picks } -> traffic.picks.first { it.id !in can.picks }.let { why(it.id) }
            traffic.mixed && can.mixConnections != null && model is LoadModel.Closed && model.connections.any { it > can.mixConnections } ->
                why(TrafficSupport.MIX_CONNECTIONS) + ": at most ${can.mixConnections} connections, not ${model.connections.max()}; use driver: k6 for more"
            else -> null
        }
    }

    /** Each fed or mixed endpoint [load]'s driver cannot send, as a problem at its `feed:` or `mix:`. */
    internal fun check(endpoints: List<EndpointSpec>, load: LoadSpec, problems: Problems) {
        for (spec in endpoints.filterIsInstance<EndpointSpec.Http>().map { it.spec }) {
            val traffic = spec.requests().firstOrNull()?.traffic ?: continue
            val why = refusal(load.settings.driver, load.model, traffic) ?: continue
            val (line, column) = spec.trafficAt ?: (1 to 1)
            problems.atPosition(line, column, "endpoints.${spec.name}.${if (traffic.mixed) "mix" else "feed"}",
                "load.driver ${load.settings.driver.id} cannot send ${if (traffic.mixed) "this mix" else "fed requests"}: $why")
        }
    }
}
