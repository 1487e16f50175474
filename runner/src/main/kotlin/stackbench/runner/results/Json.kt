package stackbench.runner.results

import com.fasterxml.jackson.annotation.JsonInclude
import tools.jackson.databind.DeserializationFeature
import tools.jackson.databind.SerializationFeature
import tools.jackson.databind.json.JsonMapper
import tools.jackson.module.kotlin.KotlinModule

/** The one JSON mapper of results: Kotlin data classes, absent figures left out, indented output. */
object Json {
    val mapper: JsonMapper = JsonMapper.builder()
        .addModule(KotlinModule.Builder().build())
        .changeDefaultPropertyInclusion { it.withValueInclusion(JsonInclude.Include.NON_NULL).withContentInclusion(JsonInclude.Include.ALWAYS) }
        .enable(SerializationFeature.INDENT_OUTPUT)
        // a newer minor version of the schema may add fields; readers of this one ignore them
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .build()
}
