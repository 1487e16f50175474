package stackbench.runner.suite

/**
 * The JDK an app runs on, as a suite names it (`jdk: 17`, `jdk: 21`, `jdk: 25`, or `jdk: PATH` to a JDK's home). An app
 * that names none runs on the JDK that runs the lab.
 */
sealed interface JdkSpec {
    /** How results and reports name it: the feature version, or the home as written. */
    val id: String

    /** Any installed JDK of this feature version (`Runtime.version().feature()`). */
    data class Feature(val version: Int) : JdkSpec {
        override val id get() = version.toString()
    }

    /** The JDK whose home is [path] (absolute: the suite reader joins a relative one to the suite's folder). */
    data class Home(val path: String) : JdkSpec {
        override val id get() = path
    }

    companion object {
        /** The feature versions a suite may name; JDK 8 and older have no `release` file the lab can read. */
        val FEATURES = 9..99

        /** [text] as a spec, or null when it is neither a feature version nor a path. */
        fun parse(text: String): JdkSpec? {
            val t = text.trim()
            t.toIntOrNull()?.let { return if (it in FEATURES) Feature(it) else null }
            return if (t.contains('/')) Home(t) else null
        }

        /** The first JDK with virtual threads (JEP 444). */
        const val VIRTUAL_THREADS = 21

        const val HINT = "a feature version (17, 21, 25) or the path of a JDK's home (e.g. jdk: /usr/lib/jvm/java-17-openjdk-amd64)"
    }
}

/** Reads an app's `jdk:` key, naming what is wrong at its line; relative homes are joined to the suite's [folder]. */
internal object JdkKey {
    fun read(m: stackbench.runner.yaml.YamlMap, problems: stackbench.runner.yaml.Problems, folder: java.nio.file.Path): JdkSpec? {
        val node = m.scalar("jdk") ?: return null
        val spec = JdkSpec.parse(node.value)
            ?: return null.also { problems.at(node, m.qualify("jdk"), "'${node.value}' is not a JDK", JdkSpec.HINT) }
        return if (spec is JdkSpec.Home && !java.nio.file.Path.of(spec.path).isAbsolute) JdkSpec.Home(folder.resolve(spec.path).normalize().toString()) else spec
    }
}
