package dev.stackbench.ownapp;

import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;
import stackbench.contract.BadParameterException;

/** The same 400 body ({@code ErrorBody}) the built-in apps answer for a bad parameter. */
@Provider
public class BadParameterMapper implements ExceptionMapper<BadParameterException> {
    @Override
    public Response toResponse(BadParameterException e) {
        return Response.status(Response.Status.BAD_REQUEST).type(MediaType.APPLICATION_JSON).entity(e.body()).build();
    }
}
