package stackbench.runner.suite

import stackbench.runner.catalog.Stack
import java.time.Duration

/**
 * What a suite app is: one of the lab's built-in stacks, or a team's own service (a JVM jar the lab starts, any
 * command it starts, or a service already running at a URL, which the lab does not start). The suite says which; [stackbench.runner.sut.SystemUnderTest] says what the lab can do with it.
 */
sealed interface AppSource {
    /** How results name the kind: the stack's id for a built-in app, else `jar`, `command` or `url`. */
    val id: String

    data class Builtin(val stack: Stack) : AppSource {
        override val id get() = stack.id
    }

    /**
     * A JVM jar, started as `java <the lab's JVM flags> <jvm-args> -jar PATH <args>`. [path] as the suite wrote it,
     * resolved against the suite file's folder (relative paths), itself relative to the lab's home.
     */
    data class Jar(val path: String, val args: List<String>, val env: Map<String, String>) : AppSource {
        override val id get() = "jar"
    }

    /** Any process: `argv[0]` found on the PATH or as a path (resolved as [Jar.path]). */
    data class Command(val argv: List<String>, val env: Map<String, String>) : AppSource {
        override val id get() = "command"
    }

    /**
     * A service already running elsewhere, at [url] (`http(s)://HOST[:PORT][/BASE]`, no trailing `/`): the lab neither
     * starts, isolates, limits nor samples it; its requests go to [url] followed by each endpoint's path.
     */
    data class Url(val url: String) : AppSource {
        override val id get() = "url"
    }

    companion object {
        /** What `{port}` and `{address}` in an own app's args and env become, and the [extra] placeholders (the database's `{db.*}`). */
        fun substitute(text: String, port: Int, address: String, extra: Map<String, String> = emptyMap()): String =
            extra.entries.fold(text.replace("{port}", port.toString()).replace("{address}", address)) { t, (k, v) -> t.replace(k, v) }
    }
}

/**
 * An own app's `build:`: a command the lab runs once before the run's first cell, in [dir] (the suite file's folder,
 * relative to the lab's home), so that `./stackbench run` builds what it needs. A failure stops the run before anything starts.
 */
data class OwnBuild(val command: List<String>, val dir: String)

/** When a started app is ready: [path] answers [status] (null: any answer below 500) within [timeout] of its start. */
data class Readiness(val path: String, val status: Int?, val timeout: Duration) {
    fun isReady(answered: Int?): Boolean = answered != null && if (status == null) answered < 500 else answered == status

    /** In words, for errors: `GET /health answering 200`. */
    val describe: String get() = "GET $path answering ${status ?: "anything below 500"}"

    companion object {
        val DEFAULT_TIMEOUT: Duration = Duration.ofSeconds(120)

        /** An own app that names no readiness: ready once it answers HTTP at all. */
        val ANY_ANSWER = Readiness("/", null, DEFAULT_TIMEOUT)
    }
}
