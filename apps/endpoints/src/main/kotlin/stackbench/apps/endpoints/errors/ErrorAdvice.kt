package stackbench.apps.endpoints.errors

import org.springframework.http.HttpStatus
import org.springframework.http.ResponseEntity
import org.springframework.http.converter.HttpMessageNotReadableException
import org.springframework.web.bind.annotation.ExceptionHandler
import org.springframework.web.bind.annotation.RestControllerAdvice
import org.springframework.web.server.ServerWebInputException
import stackbench.apps.endpoints.db.DatabaseException
import stackbench.apps.endpoints.downstream.DownstreamException
import stackbench.contract.BadParameterException
import stackbench.contract.DatabaseFailure
import stackbench.contract.DownstreamFailure
import stackbench.contract.ErrorBody

/**
 * Our errors as JSON, on Spring MVC and WebFlux alike: a bad parameter or path variable answers 400 with an
 * [ErrorBody] naming it, an unreadable request body 400 naming `body`, a failed downstream call 502, a `/db` request
 * without a database or whose database failed 503.
 */
@RestControllerAdvice
class ErrorAdvice {

    @ExceptionHandler(BadParameterException::class)
    fun badParameter(e: BadParameterException): ResponseEntity<ErrorBody> = ResponseEntity.badRequest().body(e.body())

    /** Spring MVC's and WebFlux's exceptions for a body that cannot be read as the handler's type. */
    @ExceptionHandler(HttpMessageNotReadableException::class, ServerWebInputException::class)
    fun unreadableBody(e: Exception): ResponseEntity<ErrorBody> =
        ResponseEntity.badRequest().body(UnreadableBody.of(e))

    @ExceptionHandler(DownstreamException::class)
    fun downstream(e: DownstreamException): ResponseEntity<DownstreamFailure> =
        ResponseEntity.status(HttpStatus.BAD_GATEWAY).body(e.body())

    @ExceptionHandler(DatabaseException::class)
    fun database(e: DatabaseException): ResponseEntity<DatabaseFailure> =
        ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).body(e.body())
}

/** A request body that cannot be read as the handler's type, named `body` in its 400 answer. */
object UnreadableBody {
    const val NAME = "body"
    const val ALLOWED = """a JSON todo: {"id": <number>, "title": <string>, "description": <string or null>, "completed": <boolean>}"""

    fun of(e: Exception): ErrorBody {
        val reason = (e.cause ?: e).message?.lineSequence()?.firstOrNull()?.take(300) ?: e.javaClass.simpleName
        return ErrorBody("bad_body", NAME, null, ALLOWED, "the request body is not $ALLOWED: $reason")
    }
}
