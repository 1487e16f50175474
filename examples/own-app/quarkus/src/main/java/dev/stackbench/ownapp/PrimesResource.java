package dev.stackbench.ownapp;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import stackbench.contract.Parameter;
import stackbench.contract.PrimesAnswer;
import stackbench.workloads.Primes;

/**
 * {@code GET /primes?limit=N}: the built-in apps' {@code /cpu/direct} work on the request's own thread, with their
 * answer ({@code {"limit":N,"primes":count}}) and their 400 rules, taken from the same modules rather than copied.
 * {@code ownapp.extra-work-percent} (or {@code OWNAPP_EXTRA_WORK_PERCENT}) plants a known slowdown ({@link ExtraWork}).
 */
@Path("/primes")
@Produces(MediaType.APPLICATION_JSON)
public class PrimesResource {

    private final ExtraWork extra;

    public PrimesResource(@ConfigProperty(name = "ownapp.extra-work-percent", defaultValue = "0") int extraWorkPercent) {
        this.extra = new ExtraWork(extraWorkPercent);
    }

    // the raw query, not @QueryParam: that turns "limit=" into null, where the built-in apps tell "" from missing
    @GET
    public PrimesAnswer primes(@Context UriInfo uri) {
        String limit = uri.getQueryParameters().getFirst("limit");
        PrimesAnswer answer = answer(limit);
        if (extra.repeatNext() && answer(limit).getPrimes() != answer.getPrimes()) {
            throw new IllegalStateException("the repeated work disagreed with the first");
        }
        return answer;
    }

    /** The answer for a raw limit (null when absent); a bad one throws what {@link BadParameterMapper} maps to 400. */
    static PrimesAnswer answer(String limit) {
        int n = (int) Parameter.LIMIT.parse(limit, null);
        return new PrimesAnswer(n, Primes.INSTANCE.upTo(n).size());
    }
}
