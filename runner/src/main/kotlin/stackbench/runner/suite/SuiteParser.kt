package stackbench.runner.suite

import org.snakeyaml.engine.v2.nodes.MappingNode
import org.snakeyaml.engine.v2.nodes.ScalarNode
import stackbench.contract.CpuStrategy
import stackbench.contract.DownstreamClient
import stackbench.contract.IoStrategy
import stackbench.contract.Parameter
import stackbench.contract.Strategy
import stackbench.runner.catalog.BootLine
import stackbench.runner.catalog.Stack
import stackbench.runner.yaml.Problems
import stackbench.runner.yaml.SuiteException
import stackbench.runner.yaml.Units
import stackbench.runner.yaml.YamlDocument
import stackbench.runner.yaml.YamlMap
import java.time.Duration

/** What validation needs to know of the machine the suite will run on. */
data class MachineFacts(val cpus: Int)

/**
 * Reads a suite file into a [Suite], checking everything before anything starts: unknown keys, stacks,
 * strategies, units, ranges, and a profile that asks for more than the machine has. All problems are
 * reported together, each at its file, line and column.
 */
class SuiteParser(
    private val machine: MachineFacts,
    /** What a suite's shown path is relative to (the lab's home): own apps' files resolve against the suite's folder there. */
    private val home: java.nio.file.Path = java.nio.file.Path.of(""),
    /** Where `${'$'}{env:NAME}` placeholders are looked up (checked here, put in only where the lab sends or starts something). */
    private val env: Map<String, String> = System.getenv(),
) {
    /** The folder of the suite being read, relative to [home] when the suite was: own apps' relative paths start here. */
    private var folder: java.nio.file.Path = java.nio.file.Path.of("")

    /** Whether the suite being read has a `database:`, which own apps' `{db.*}` placeholders need. */
    private var hasDatabase = false


    /** Reads the suite file at [path], shown as [shown] in problems: not UTF-8, too large, or not a suite is a [SuiteException]. */
    fun read(path: java.nio.file.Path, shown: String): Suite = parse(SuiteText.read(path, shown), shown)

    fun parse(text: String, source: String): Suite {
        folder = java.nio.file.Path.of(source).parent ?: java.nio.file.Path.of("")
        val lines = text.lines()
        val problems = Problems(source, lines)
        val root = YamlDocument.compose(text, source, problems, "suite", "must be a mapping with keys such as name, apps, endpoints, load")
        val secrets = root?.let { SecretsCheck.check(it, env, problems) } ?: emptyList()
        val suite = root?.let { read(YamlMap(it, "", problems), source, problems) }?.copy(secrets = secrets)
        if (problems.all.isNotEmpty() || suite == null) {
            if (problems.all.isEmpty()) problems.at(null, "suite", "the file is empty")
            throw SuiteException(problems.all.sortedWith(compareBy({ it.line }, { it.column })))
        }
        return suite
    }

    private fun read(root: YamlMap, source: String, problems: Problems): Suite? {
        val name = root.requiredString("name", "every suite has a name; results are saved under results/<name>-<time>")
        if (name != null && !name.matches(Regex("[A-Za-z0-9._-]+"))) {
            problems.at(root.keyNode("name"), "name", "'$name' may hold only letters, digits, '.', '_' and '-'")
        }
        val description = root.string("description") ?: ""
        hasDatabase = root.has("database")
        val apps = readApps(root, problems)
        val urlApps = apps.filter { it.source is AppSource.Url }.map { it.name }
        val profile = root.map("profile")?.let { ProfileReader(machine).read(it, problems, urlApps) } ?: ProfileReader(machine).default(urlApps)
        val appNames = apps.map { it.name }.toSet()
        val endpoints = readEndpoints(root, apps, problems)
        val load = root.map("load")?.let { LoadReader(it, problems).read() } ?: LoadReader.defaults()
        TrafficCheck.check(endpoints, load, problems)
        val repetitions = root.int("repetitions", Ranges.REPETITIONS) ?: Defaults.REPETITIONS
        val processes = root.int("processes", Ranges.PROCESSES) ?: Defaults.PROCESSES
        val downstream = root.map("downstream")?.let { readDownstream(it) } ?: DownstreamConfig(null)
        val database = readDatabase(root, profile, problems)
        val restart = root.scalar("restart")?.let { node ->
            Restart.entries.firstOrNull { it.id == node.value }
                ?: null.also { problems.at(node, "restart", "'${node.value}' is not cell or app", "cell: a fresh app for every cell (default); app: one app for its consecutive cells") }
        } ?: Restart.CELL
        val comparisons = CompareReader.read(root, problems)
        // Without a compare: list the budget is for the comparisons findings-run brings from docs/claims.yaml.
        val untilDecided = root.duration("until-decided", Ranges.UNTIL_DECIDED_MIN, Ranges.UNTIL_DECIDED_MAX)
        val hosts = HostsReader(root, problems, load).read()
        if (database != null && !hosts.allLocal) {
            problems.at(root.keyNode("database"), "database", "runs on this machine's loopback, which the roles on the suite's other hosts cannot reach",
                "leave hosts: out of a suite with a database:")
        }
        if (urlApps.isNotEmpty() && hosts.placement.app != HostSpec.LOCAL) {
            problems.at(root.keyNode("placement"), "placement.app", "places the app on ${hosts.placement.app}, but ${urlApps.joinToString { "apps.$it" }} " +
                "is a url: app, which runs where its url says", "leave placement.app out for a suite with a url: app")
        }
        val appHost = hosts.hosts.firstOrNull { it.name == hosts.placement.app }
        if (appHost is HostSpec.Ssh) for ((i, app) in apps.withIndex().filter { it.value.jdk != null }) {
            problems.at(root.keyNode("placement"), "apps[$i].jdk", "names a JDK of this machine, but placement.app puts the app on ${appHost.name}, " +
                "an ssh host, which starts it with its own java", "set java: on the host ${appHost.name}, and leave jdk: out")
        }
        val profiler = ProfilerReader.read(root, problems)
        checkAlternate(root, problems, profiler, apps, restart, repetitions)
        root.finish()
        if (problems.all.isNotEmpty() || name == null) return null
        return Suite(name, description, source, apps, profile, endpoints, load, repetitions, downstream, restart, comparisons, untilDecided, hosts, processes = processes, profiler = profiler, database = database)
    }

    /**
     * `profiler: {alternate: true}` profiles every second window of a process against the windows between: that needs
     * the windows in one process (`restart: app`) and at least three of them, an unprofiled one on each side of a profiled one.
     */
    private fun checkAlternate(root: YamlMap, problems: Problems, suite: ProfilerSpec?, apps: List<AppConfig>, restart: Restart, repetitions: Int) {
        val who = listOfNotNull("profiler".takeIf { suite?.alternate == true }) +
            apps.withIndex().filter { (it.value.profiler as? AppProfiler.On)?.spec?.alternate == true }.map { "apps[${it.index}].profiler" }
        if (who.isEmpty()) return
        val at = who.joinToString() + ".alternate"
        if (restart != Restart.APP) {
            problems.at(root.keyNode("restart") ?: root.keyNode("profiler") ?: root.keyNode("apps"), at,
                "profiles every second window of a process, but each cell has a process of its own (restart: ${restart.id})", "set restart: app")
        } else if (repetitions < 3) {
            problems.at(root.keyNode("repetitions") ?: root.keyNode("apps"), at,
                "profiles every second window of a process against the windows beside it, but a process has $repetitions", "set repetitions: 3 or more (7: three profiled windows between four unprofiled)")
        }
    }

    private fun readApps(root: YamlMap, problems: Problems): List<AppConfig> {
        if (!root.has("apps")) {
            root.valueNode("apps")
            problems.at(root.node, "apps", "is required: the app configurations to compare",
                "e.g. apps: [{name: tomcat-platform, stack: tomcat}]")
            return emptyList()
        }
        val maps = root.maps("apps") ?: return emptyList()
        if (maps.isEmpty()) problems.at(root.valueNode("apps"), "apps", "must name at least one app")
        val seen = mutableSetOf<String>()
        return maps.mapNotNull { m ->
            val app = readApp(m, problems)
            if (app != null && !seen.add(app.name)) problems.at(m.keyNode("name"), m.qualify("name"), "'${app.name}' is used twice; app names must be unique")
            app
        }
    }

    private fun readApp(m: YamlMap, problems: Problems): AppConfig? {
        val kinds = listOf("stack", "jar", "command", "url").filter { m.has(it) }
        if (kinds.size > 1) {
            problems.at(m.keyNode(kinds[1]), m.qualify(kinds[1]), "an app is one of stack, jar, command or url, not ${kinds.joinToString(" and ")}")
            return null // its other keys are not checked: which of them apply depends on the kind
        }
        if (kinds.firstOrNull() in listOf("jar", "command", "url")) return OwnAppReader(m, problems, folder, hasDatabase).read()
        val stackId = m.requiredString("stack", "one of: ${Stack.ids.joinToString()}; or your own app: jar: PATH, command: [PROGRAM, ARGS...], or url: http://HOST:PORT")
        val bootNode = m.scalar("boot")
        val virtual = m.boolean("virtual-threads") ?: false
        val properties = m.stringMap("properties") ?: emptyMap()
        val systemProperties = m.stringMap("system-properties") ?: emptyMap()
        val jvmArgs = m.scalars("jvm-args")?.map { it.value } ?: emptyList()
        val jdk = JdkKey.read(m, problems, folder)
        val profiler = ProfilerReader.readApp(m, problems)
        val explicitName = m.string("name")
        m.finish()
        if (stackId == null) return null
        if (stackId !in Stack.ids) {
            problems.at(m.valueNode("stack"), m.qualify("stack"), "'$stackId' is not a stack", "one of: ${Stack.ids.joinToString()}")
            return null
        }
        var boot: BootLine? = null
        if (bootNode != null) {
            boot = BootLine.byId(bootNode.value)
            val lines = Stack.linesOf(stackId)
            if (boot == null || boot !in lines) {
                problems.at(bootNode, m.qualify("boot"), "'${bootNode.value}' is not a Spring Boot line that $stackId is built on",
                    "$stackId is built on: ${lines.joinToString { it.id }}")
                return null
            }
        }
        // virtual threads on a reactive stack are allowed: Spring Boot then runs blocking controller methods on them; /info records it
        val stack = Stack.find(stackId, boot)!!
        val name = explicitName ?: (stack.label + if (virtual) "-virtual" else "")
        if (!name.matches(Regex("[A-Za-z0-9._@-]+"))) {
            problems.at(m.keyNode("name") ?: m.node, m.qualify("name"), "'$name' may hold only letters, digits, '.', '_', '@' and '-'")
        }
        if (properties.containsKey("server.port") || properties.containsKey("spring.threads.virtual.enabled")) {
            problems.at(m.valueNode("properties"), m.qualify("properties"),
                "server.port and spring.threads.virtual.enabled are set by the runner", "use virtual-threads: true; ports are chosen per cell")
        }
        if (jdk is JdkSpec.Feature) checkJdk(jdk, stack, virtual, m, problems)
        return AppConfig(name, AppSource.Builtin(stack), virtual, properties, systemProperties, jvmArgs, jdk = jdk, profiler = profiler)
    }

    /** A built-in jar runs on its Boot line's JDKs, and virtual threads need 21 (a named home is checked when the run finds its version). */
    private fun checkJdk(jdk: JdkSpec.Feature, stack: Stack, virtual: Boolean, m: YamlMap, problems: Problems) {
        val node = m.valueNode("jdk")
        if (jdk.version < stack.boot.minJdk) {
            problems.at(node, m.qualify("jdk"), "JDK ${jdk.version} cannot run ${stack.id} on Spring Boot ${stack.boot.id}: its jar is built for JDK ${stack.boot.minJdk} and later",
                BootLine.entries.filter { it.minJdk <= jdk.version }.joinToString { "boot: ${it.id} runs on JDK ${it.minJdk}+" }.ifEmpty { "use a newer JDK" })
        } else if (virtual && jdk.version < JdkSpec.VIRTUAL_THREADS) {
            problems.at(node, m.qualify("jdk"), "virtual threads need JDK ${JdkSpec.VIRTUAL_THREADS} or later, not ${jdk.version}", "drop virtual-threads: true, or use jdk: 21 or later")
        }
    }

    private fun readEndpoints(root: YamlMap, apps: List<AppConfig>, problems: Problems): List<EndpointSpec> {
        val appNames = apps.map { it.name }.toSet()
        val ownApps = apps.filter { it.stack == null }.map { it.name }.toSet()
        val maps = root.maps("endpoints")
        if (maps == null) {
            problems.at(root.node, "endpoints", "is required: what to call on each app", "e.g. endpoints: [{kind: cpu, strategies: [direct], limit: [10000]}]")
            return emptyList()
        }
        if (maps.isEmpty()) problems.at(root.valueNode("endpoints"), "endpoints", "must name at least one endpoint: a suite with none has no cell to run",
            "e.g. endpoints: [{kind: noop}]")
        return maps.mapNotNull { EndpointReader(it, appNames, ownApps, problems, home.resolve(folder), hasDatabase).read() }
    }

    /** `database:` (a mapping, or `database: postgresql` for every default); null when the suite has none. */
    private fun readDatabase(root: YamlMap, profile: ResourceProfile, problems: Problems): DatabaseSpec? {
        if (!root.has("database")) return null
        val node = root.valueNode("database")
        if (node is ScalarNode) {
            if (node.value != DatabaseSpec.ENGINE) problems.at(node, "database", "'${node.value}' is not a database engine the lab starts",
                "database: ${DatabaseSpec.ENGINE}, or database: {engine: ${DatabaseSpec.ENGINE}, schema: FILE, memory: 512MiB}")
            return DatabaseSpec()
        }
        val m = root.map("database") ?: return null
        return DatabaseReader(m, problems, home, machine.cpus, profile.cpuset).read()
    }

    private fun readDownstream(m: YamlMap): DownstreamConfig {
        val stall = m.map("stall")?.let { s ->
            val every = s.duration("every", Duration.ofMillis(1), Duration.ofHours(1)) ?: Duration.ofSeconds(5)
            val window = s.duration("window", Duration.ofMillis(1), Duration.ofHours(1)) ?: Duration.ofSeconds(1)
            val hold = s.duration("hold", Duration.ofMillis(1), Duration.ofMinutes(1)) ?: Duration.ofMillis(500)
            if (window >= every) s.problems.at(s.valueNode("window"), s.qualify("window"), "must be shorter than 'every'")
            s.finish()
            DownstreamConfig.Stall(every, window, hold)
        }
        m.finish()
        return DownstreamConfig(stall)
    }
}
