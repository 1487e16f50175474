package dev.stackbench.ownapp;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import stackbench.contract.Parameter;
import stackbench.contract.PrimesAnswer;
import stackbench.workloads.Primes;

/**
 * {@code GET /primes?limit=N}: the built-in apps' {@code /cpu/direct} work on the request's own thread, with their
 * answer ({@code {"limit":N,"primes":count}}) and their 400 rules, taken from the same modules rather than copied.
 */
@Path("/primes")
@Produces(MediaType.APPLICATION_JSON)
public class PrimesResource {

    // the raw query, not @QueryParam: that turns "limit=" into null, where the built-in apps tell "" from missing
    @GET
    public PrimesAnswer primes(@Context UriInfo uri) {
        return answer(uri.getQueryParameters().getFirst("limit"));
    }

    /** The answer for a raw limit (null when absent); a bad one throws what {@link BadParameterMapper} maps to 400. */
    static PrimesAnswer answer(String limit) {
        int n = (int) Parameter.LIMIT.parse(limit, null);
        return new PrimesAnswer(n, Primes.INSTANCE.upTo(n).size());
    }
}
