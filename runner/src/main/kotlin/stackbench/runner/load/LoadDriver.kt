package stackbench.runner.load

import stackbench.runner.catalog.DriverSpec
import stackbench.runner.plan.LoadShape
import stackbench.runner.results.LoadResult
import stackbench.runner.suite.LoadLength
import java.net.URI
import java.nio.file.Path
import java.time.Duration

/** One load phase (warm-up or measured) a driver is asked to run. */
data class DriveRequest(
    val url: URI,
    val method: String,
    /** JSON body for POST, or null. */
    val body: String?,
    /** user to password for HTTP Basic, or null. */
    val basicAuth: Pair<String, String>?,
    val shape: LoadShape,
    val length: LoadLength,
    val timeout: Duration,
    /** Driver threads (wrk -t, oha --worker-threads). */
    val threads: Int,
    /** Where the driver writes its raw output; one folder per phase. */
    val outputDir: Path,
    /** The status a successful answer has (200, or 201 for POST /todo). */
    val expectedStatus: Int = 200,
    /** A scenario's requests, in its steps' order (the shape is a [LoadShape.Scenario]); empty otherwise. */
    val scenarioCalls: List<HttpCall> = emptyList(),
    /** Headers a declared endpoint sends (`kind: http`), a Content-Type among them or not. */
    val headers: Map<String, String> = emptyMap(),
    /**
     * Fed or mixed requests of a declared endpoint, sent in place of [method] and [url]'s path (whose scheme, host and
     * port they use); null for the one request above.
     */
    val traffic: stackbench.runner.suite.Traffic? = null,
)

/** One request of a scenario, resolved against the running app: what [DriveRequest] holds for a single request. */
data class HttpCall(
    val url: URI,
    val method: String,
    val body: String?,
    val basicAuth: Pair<String, String>?,
    val expectedStatus: Int,
    val headers: Map<String, String> = emptyMap(),
    /** How the results name its figures: the scenario step's request line (`POST /todo`); null: not named. */
    val name: String? = null,
)

/**
 * A load generator behind one interface. Building the command and reading the output are pure, so they
 * are tested on recorded outputs; [DriverProcess] runs the command.
 */
interface LoadDriver {
    val kind: DriverSpec

    /** The command line for [request], with [executable] as the tool. May write helper files (a Lua script) into the output folder. */
    fun command(request: DriveRequest, executable: Path): List<String>

    /** Reads what the command left in the output folder (and its captured stdout/stderr) into the common model. */
    fun parse(request: DriveRequest, stdout: Path, stderr: Path, wallSeconds: Double): LoadResult
}
