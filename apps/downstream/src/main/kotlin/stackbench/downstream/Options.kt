package stackbench.downstream

/** The command line of the downstream service. */
data class Options(
    val port: Int = DEFAULT_PORT,
    val host: String = DEFAULT_HOST,
    val stall: StallSchedule = StallSchedule.OFF,
) {
    companion object {
        const val DEFAULT_PORT = 8081
        const val DEFAULT_HOST = "127.0.0.1"

        val USAGE = """
            |Usage: java -jar downstream.jar [--port=P] [--host=H] [--stall-every=MS --stall-window=MS --stall-hold=MS]
            |
            |The service the apps' /downstream endpoints call. GET /delay?ms=N answers {"delayed":N} after N ms
            |(0..60000) on a timer, holding no thread while it waits; GET /health answers ok.
            |
            |  --port=P            port to listen on (default $DEFAULT_PORT; 0 picks a free one)
            |  --host=H            address to listen on (default $DEFAULT_HOST)
            |  --stall-every=MS    stall mode (off by default): a request arriving while
            |  --stall-window=MS     (now - start) mod every < window is held hold ms more than it asked;
            |  --stall-hold=MS       the three go together
            |  --help              this text
            |
            |JVM system properties of Reactor Netty apply, e.g. -Dreactor.netty.ioWorkerCount=1.
        """.trimMargin()

        /** The options, or null when help was asked. Throws [IllegalArgumentException] saying what is wrong. */
        fun parse(args: Array<String>): Options? {
            val values = mutableMapOf<String, String>()
            var i = 0
            while (i < args.size) {
                val arg = args[i++]
                if (arg == "--help" || arg == "-h") return null
                require(arg.startsWith("--")) { "unexpected argument '$arg'" }
                val name = arg.removePrefix("--").substringBefore('=')
                require(name in KNOWN) { "unknown option '--$name'" }
                val value = if ('=' in arg) arg.substringAfter('=') else {
                    require(i < args.size) { "option '--$name' needs a value" }
                    args[i++]
                }
                values[name] = value
            }
            val stallGiven = STALL.filter { it in values }
            require(stallGiven.isEmpty() || stallGiven.size == STALL.size) {
                "the stall options go together: ${STALL.joinToString(", ") { "--$it" }}"
            }
            val port = number(values, "port", DEFAULT_PORT.toLong()).toInt()
            require(port in 0..65535) { "--port must be 0..65535, was $port" }
            return Options(
                port = port,
                host = values["host"]?.takeIf { it.isNotBlank() } ?: DEFAULT_HOST,
                stall = StallSchedule(number(values, "stall-every", 0), number(values, "stall-window", 0), number(values, "stall-hold", 0)),
            )
        }

        private val STALL = listOf("stall-every", "stall-window", "stall-hold")
        private val KNOWN = setOf("port", "host") + STALL

        private fun number(values: Map<String, String>, name: String, default: Long): Long {
            val raw = values[name] ?: return default
            return raw.toLongOrNull() ?: throw IllegalArgumentException("--$name must be a whole number, was '$raw'")
        }
    }
}
