package stackbench.runner.report

/**
 * What every report page inlines, read from the runner's classpath: the stylesheet, the chart renderer, and
 * Apache ECharts (Apache License 2.0; the build copies its minified bundle, LICENSE and NOTICE from the npm
 * package as published on Maven Central, see runner/pom.xml).
 */
object Assets {
    const val ECHARTS_VERSION = "6.0.0"

    val css: String by lazy { read("report.css") }
    val script: String by lazy { read("report.js") }
    val echarts: String by lazy { read("echarts/echarts.common.min.js") }
    val echartsNotice: String by lazy { read("echarts/NOTICE").trim() }

    private fun read(name: String): String {
        val path = "/stackbench/report/$name"
        val stream = Assets::class.java.getResourceAsStream(path)
            ?: throw IllegalStateException("the runner was built without $path; rebuild it with ./stackbench build")
        return stream.use { String(it.readAllBytes(), Charsets.UTF_8) }
    }
}
