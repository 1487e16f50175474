package dev.stackbench.ownapp;

import jakarta.inject.Singleton;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.Map;

/** {@code GET /orders/{id}} (200 or 404) and {@code POST /orders} (201 with the order, or 400). */
@Path("/orders")
@Produces(MediaType.APPLICATION_JSON)
@Singleton
public class OrdersResource {

    // one catalogue, so one id counter, for the whole application (hence @Singleton)
    private final Orders orders = new Orders();

    @GET
    @Path("/{id}")
    public Response find(@PathParam("id") long id) {
        return orders.find(id)
                .map(order -> Response.ok(order).build())
                .orElseGet(() -> Response.status(Response.Status.NOT_FOUND)
                        .entity(Map.of("error", "not_found", "id", id)).build());
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    public Response create(Orders.NewOrder body) {
        return orders.create(body)
                .map(order -> Response.created(URI.create("/orders/" + order.id())).entity(order).build())
                .orElseGet(() -> Response.status(Response.Status.BAD_REQUEST)
                        .entity(Map.of("error", "bad_body",
                                "message", "expected {\"item\": <non-empty string>, \"quantity\": <integer >= 1>}"))
                        .build());
    }
}
