package stackbench.runner.scaffold

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

class AnswersTest {
    @Test
    fun `readiness is the first health path that answers 2xx, else slash answering below 500`() {
        assertThat(Answers.readiness(mapOf("/actuator/health" to 404, "/q/health/ready" to 200, "/health" to 200, "/" to 404)))
            .isEqualTo("/q/health/ready" to 200)
        assertThat(Answers.readiness(mapOf("/actuator/health" to 404, "/" to 404))).isEqualTo("/" to null)
        assertThat(Answers.readiness(mapOf("/actuator/health" to null, "/" to 503))).isNull()
        // no health path, but the endpoint measured answers 200: it is the readiness
        assertThat(Answers.readiness(mapOf("/actuator/health" to 404, "/" to 403), "/__admin/health" to 200)).isEqualTo("/__admin/health" to 200)
    }

    @Test
    fun `a JSON answer is checked on a field the same in two answers, skipping times and ids of the moment`() {
        val a = Answer(200, "application/json", """{"timestamp":"2026-12-06T01:00:00Z","status":"UP","count":3}""")
        val b = Answer(200, "application/json", """{"timestamp":"2026-12-06T01:00:01Z","status":"UP","count":4}""")
        val c = Answers.check(a, b)
        assertThat(c.status).isEqualTo(200)
        assertThat(c.check).isEqualTo(BodyCheck.Json("/status", "UP"))
        val array = Answers.check(Answer(200, null, """[{"id":1,"name":"a"}]"""), Answer(200, null, """[{"id":1,"name":"a"}]"""))
        assertThat(array.check).isEqualTo(BodyCheck.Json("/0/id", "1"))
    }

    @Test
    fun `text is checked on its first line, an empty or changing body on its status alone`() {
        assertThat(Answers.check(Answer(200, "text/plain", "Hello world\nsecond"), Answer(200, "text/plain", "Hello world\nother")).check)
            .isEqualTo(BodyCheck.Contains("Hello world"))
        assertThat(Answers.check(Answer(204, null, ""), Answer(204, null, "")).let { it.status to it.check }).isEqualTo(204 to null)
        assertThat(Answers.check(Answer(200, "text/plain", "a 1"), Answer(200, "text/plain", "b 2")).check).isNull()
        // a value with braces would be read as a {param}
        assertThat(Answers.check(Answer(200, "application/json", """{"x":"{y}"}"""), Answer(200, "application/json", """{"x":"{y}"}""")).check).isNull()
    }
}
