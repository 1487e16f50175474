package stackbench.apps.contract

import java.net.ServerSocket
import stackbench.runner.sut.FastStart
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.Paths
import java.time.Duration
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.TimeUnit

/** A jar started by the JDK running the tests (`java -jar`, or the runner's fast start), its output in a log file. */
class JavaProcess private constructor(
    val name: String,
    private val process: Process,
    val log: Path,
    /** How long it may take to exit after SIGTERM before SIGKILL. */
    private val grace: Duration,
) : AutoCloseable {

    val alive: Boolean get() = process.isAlive

    fun logTail(lines: Int = 40): String =
        if (Files.exists(log)) Files.readAllLines(log).takeLast(lines).joinToString("\n") else "(no log)"

    /** Appends a thread dump of the process to its log (jcmd of the JDK running the tests), for a failure's record. */
    fun dumpThreads() {
        if (!process.isAlive) return
        val jcmd = Paths.get(System.getProperty("java.home"), "bin", "jcmd").toString()
        val dump = ProcessBuilder(jcmd, process.pid().toString(), "Thread.print").redirectErrorStream(true).start()
        val text = dump.inputStream.readAllBytes().decodeToString()
        dump.waitFor(20, TimeUnit.SECONDS)
        Files.writeString(log, "\n--- thread dump after a failure ---\n$text", java.nio.file.StandardOpenOption.APPEND)
    }

    /** Waits for a process that ends by itself (at most 30 s), answering its exit code. */
    fun awaitExit(): Int {
        check(process.waitFor(30, TimeUnit.SECONDS)) { "$name did not exit:\n${logTail()}" }
        return process.exitValue()
    }

    /** SIGTERM, a grace period, then SIGKILL: no process outlives the tests. */
    override fun close() {
        if (process.isAlive) {
            process.destroy()
            if (!process.waitFor(grace.toSeconds(), TimeUnit.SECONDS)) {
                process.destroyForcibly()
                process.waitFor(5, TimeUnit.SECONDS)
            }
        }
        started.remove(this)
    }

    companion object {
        private val started = CopyOnWriteArrayList<JavaProcess>()
        private val logs: Path = Paths.get(System.getProperty("stackbench.test.logs", "target/app-logs"))
        private val javaBin: String = Paths.get(System.getProperty("java.home"), "bin", "java").toString()

        init {
            // the last line of defence: whatever a failing test left running dies with the test JVM
            Runtime.getRuntime().addShutdownHook(Thread { started.forEach { it.process.destroyForcibly() } })
        }

        fun start(name: String, jar: Path, jvmOptions: List<String>, args: List<String>): JavaProcess {
            check(Files.isRegularFile(jar)) { "$jar is missing: build the apps first (mvn package)" }
            return launch(name, jvmOptions + listOf("-jar", jar.toString()), args, Duration.ofSeconds(15))
        }

        /**
         * [jar] started as the runner's `--fast-start` starts it (sut/FastStart): extracted beside itself, with the
         * class-data archive that the lab's own tests share, which the first process writes at its exit (so it gets
         * [FastStart.EXIT_GRACE_SECONDS] after SIGTERM).
         */
        fun startFast(name: String, jar: Path, jvmOptions: List<String>, args: List<String>): JavaProcess =
            launch(name, jvmOptions + FastStart.launch(Paths.get(javaBin), jar), args, Duration.ofSeconds(FastStart.EXIT_GRACE_SECONDS))

        private fun launch(name: String, jvmArgs: List<String>, args: List<String>, grace: Duration): JavaProcess {
            Files.createDirectories(logs)
            val log = logs.resolve("$name.log")
            val process = ProcessBuilder(listOf(javaBin) + jvmArgs + args)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start()
            return JavaProcess(name, process, log, grace).also { started.add(it) }
        }

        /** The ports handed out in this test JVM: none twice, since one handed out may not be bound yet. */
        private val handedOut = java.util.concurrent.ConcurrentHashMap.newKeySet<Int>()

        /**
         * A port nothing listens on, from 20000-29999: below Linux's ephemeral range (32768-60999 by default), where a
         * port found free with `ServerSocket(0)` stays free only until an outgoing connection (a health poll, the
         * apps' calls to the downstream service and the database) takes it as its source port, and the app started a
         * moment later fails to bind. The runner's `host/ListenPorts` keeps the same rule for the lab.
         */
        fun freePort(): Int = (20000..29999).shuffled().first { port ->
            handedOut.add(port) && runCatching { ServerSocket(port, 1, java.net.InetAddress.getLoopbackAddress()).close() }.isSuccess
        }

        fun awaitUp(process: JavaProcess, timeout: Duration, up: () -> Boolean) {
            val deadline = System.nanoTime() + timeout.toNanos()
            while (System.nanoTime() < deadline) {
                check(process.alive) { "${process.name} exited during start-up:\n${process.logTail()}" }
                if (runCatching(up).getOrDefault(false)) return
                Thread.sleep(100)
            }
            error("${process.name} not up after $timeout:\n${process.logTail()}")
        }
    }
}
