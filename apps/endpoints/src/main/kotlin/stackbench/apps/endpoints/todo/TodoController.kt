package stackbench.apps.endpoints.todo

import org.springframework.http.HttpStatus
import org.springframework.http.ResponseEntity
import org.springframework.web.bind.annotation.GetMapping
import org.springframework.web.bind.annotation.PostMapping
import org.springframework.web.bind.annotation.RequestBody
import org.springframework.web.bind.annotation.RequestMapping
import org.springframework.web.bind.annotation.RestController
import stackbench.apps.endpoints.stats.WorkCounters
import stackbench.contract.Paths
import stackbench.contract.Todo
import stackbench.contract.Todos

/**
 * `/todo`, behind HTTP Basic: the fixed list of 10 items, and a POST that answers 201 with the posted item. The handler
 * bodies, GET and POST alike, are counted as `/todo`'s work (not the authentication, not the JSON).
 */
@RestController
@RequestMapping(Paths.TODO)
class TodoController(private val work: WorkCounters) {

    @GetMapping
    fun list(): List<Todo> = work.cpu(Paths.TODO) { Todos.LIST }

    @PostMapping
    fun create(@RequestBody todo: Todo): ResponseEntity<Todo> =
        work.cpu(Paths.TODO) { ResponseEntity.status(HttpStatus.CREATED).body(Todos.created(todo)) }
}
