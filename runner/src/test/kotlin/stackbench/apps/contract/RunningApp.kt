package stackbench.apps.contract

import stackbench.contract.Paths
import stackbench.contract.Stats
import java.time.Duration

/** An app jar running for a test: its main port, its stats side channel, its process. */
class RunningApp private constructor(val stack: Stack, val process: JavaProcess, port: Int, statsPort: Int) : AutoCloseable {
    val base = "http://127.0.0.1:$port"
    val http = Http(base, keepAlive = stack.keepAliveDefect == null)
    private val statsHttp = Http("http://127.0.0.1:$statsPort")

    fun stats(): Stats = statsHttp.get(Stats.PATH).json()

    /** Spring's "Started X in N seconds (process running for M)" line, which the runner parses. */
    fun startedLine(): String? = java.nio.file.Files.readAllLines(process.log).firstOrNull { STARTED.containsMatchIn(it) }

    /** Runs [checks]; if they throw, the app's threads are dumped into its log first. */
    fun <T> diagnosed(checks: () -> T): T = try {
        checks()
    } catch (e: Throwable) {
        process.dumpThreads()
        throw e
    }

    override fun close() {
        http.close()
        statsHttp.close()
        process.close()
    }

    companion object {
        private val STARTED = Regex("""Started \w+ in \d+\.\d+ seconds \(process running for \d+\.\d+\)""")

        /**
         * A small heap and C1 alone (`-XX:TieredStopAtLevel=1`: what the app answers does not depend on the JIT's tier,
         * and without C2 competing for the CPU a Tomcat jar on one CPU started in 10.5-10.7 s against 18.5-21.4 s), and
         * the runner's fast start (the jar extracted, a class-data archive shared with the lab's other tests): nothing
         * here is about start-up, and the twelve starts were most of this class's CPU. Everything else as in production.
         */
        fun start(stack: Stack, label: String, args: List<String>, systemProperties: List<String> = emptyList()): RunningApp {
            val port = JavaProcess.freePort()
            val statsPort = JavaProcess.freePort()
            val process = JavaProcess.startFast(
                "${stack.id}-boot${stack.bootLine}-$label", stack.jar, listOf("-Xmx256m", "-XX:TieredStopAtLevel=1") + systemProperties,
                listOf("--server.port=$port", "--stackbench.stats.port=$statsPort") + args,
            )
            val app = RunningApp(stack, process, port, statsPort)
            try {
                JavaProcess.awaitUp(process, Duration.ofSeconds(90)) { app.http.get(Paths.HEALTH).status == 200 }
            } catch (e: Throwable) {
                app.close()
                throw e
            }
            return app
        }
    }
}
