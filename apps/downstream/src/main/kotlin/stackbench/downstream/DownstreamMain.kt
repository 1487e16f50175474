package stackbench.downstream

import kotlin.system.exitProcess

/** `java -jar downstream.jar [--port=P] [--host=H] [--stall-...]`: see [Options.USAGE]. */
fun main(args: Array<String>) {
    val options = try {
        Options.parse(args)
    } catch (e: IllegalArgumentException) {
        System.err.println("downstream: ${e.message}")
        System.err.println(Options.USAGE)
        exitProcess(2)
    }
    if (options == null) {
        println(Options.USAGE)
        return
    }
    val server = DelayServer(options).start()
    Runtime.getRuntime().addShutdownHook(Thread { server.disposeNow() })
    val uptime = java.lang.management.ManagementFactory.getRuntimeMXBean().uptime
    println("downstream: listening on http://${options.host}:${server.port()} (stall: ${options.stall}; " +
        "processors=${Runtime.getRuntime().availableProcessors()}) started in $uptime ms")
    server.onDispose().block()
}
