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
        val suite = root?.let { read(YamlMap(it, "", problems), source, problems) }
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
        val profile = root.map("profile")?.let { readProfile(it, problems, urlApps) } ?: defaultProfile(urlApps)
        val appNames = apps.map { it.name }.toSet()
        val endpoints = readEndpoints(root, apps, problems)
        val load = root.map("load")?.let { LoadReader(it, problems).read() } ?: LoadReader.defaults()
        val repetitions = root.int("repetitions", Ranges.REPETITIONS) ?: Defaults.REPETITIONS
        val processes = root.int("processes", Ranges.PROCESSES) ?: Defaults.PROCESSES
        val downstream = root.map("downstream")?.let { readDownstream(it) } ?: DownstreamConfig(null)
        val database = readDatabase(root, profile, problems)
        val restart = root.scalar("restart")?.let { node ->
            Restart.entries.firstOrNull { it.id == node.value }
                ?: null.also { problems.at(node, "restart", "'${node.value}' is not cell or app", "cell: a fresh app for every cell (default); app: one app for its consecutive cells") }
        } ?: Restart.CELL
        val comparisons = CompareReader.read(root, problems)
        val untilDecided = root.duration("until-decided", Ranges.UNTIL_DECIDED_MIN, Ranges.UNTIL_DECIDED_MAX)
        if (untilDecided != null && comparisons.isEmpty()) {
            problems.at(root.keyNode("until-decided"), "until-decided", "has no comparison to decide", "name them in a compare: list")
        }
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

    /** The profile of a suite that names none: the defaults, or no limits at all beside a url: app, which nothing limits. */
    private fun defaultProfile(urlApps: List<String>) =
        if (urlApps.isNotEmpty()) ResourceProfile(null, emptyList(), null, Defaults.HEAP_PERCENT)
        else ResourceProfile(Defaults.CPUS.coerceAtMost(machine.cpus.toDouble()), emptyList(), Defaults.MEMORY_BYTES, Defaults.HEAP_PERCENT)

    /**
     * Reads `profile:`. In a suite with a url: app ([urlApps]) the profile limits nothing: `cpus` and `memory` default
     * to `none`, and a CPU quota, a CPU set or a memory limit is refused at its key, naming the url: apps. The one profile
     * would give the other apps limits the url: app cannot have, and the lab cannot limit a service it did not start.
     */
    private fun readProfile(m: YamlMap, problems: Problems, urlApps: List<String>): ResourceProfile {
        val cpusNode = m.scalar("cpus")
        var cpus: Double? = if (urlApps.isEmpty()) Defaults.CPUS else null
        if (cpusNode != null) {
            cpus = if (cpusNode.value == "none") null else Units.number(cpusNode.value)
            if (cpusNode.value != "none" && (cpus == null || cpus < Units.MIN_CPUS)) {
                problems.at(cpusNode, m.qualify("cpus"), "'${cpusNode.value}' is not a number of CPUs of at least ${Units.MIN_CPUS}",
                    "the kernel's smallest CPU quota is 1 ms per 100 ms period (0.01 CPU); e.g. cpus: 1, cpus: 0.5, or cpus: none for no quota")
                cpus = null
            } else if (cpus != null && cpus > machine.cpus) {
                problems.at(cpusNode, m.qualify("cpus"), "asks for $cpus CPUs but this machine has ${machine.cpus}")
            }
        }
        val cpuset = m.scalars("cpuset")?.flatMap { node ->
            node.value.split(',').mapNotNull { part ->
                val id = part.trim().toIntOrNull()
                if (id == null || id < 0 || id >= machine.cpus) {
                    null.also { problems.at(node, m.qualify("cpuset"), "'${part.trim()}' is not a CPU of this machine", "CPUs here are 0..${machine.cpus - 1}") }
                } else id
            }
        }?.distinct()?.sorted() ?: emptyList()
        if (cpuset.size >= machine.cpus && cpuset.isNotEmpty()) {
            problems.at(m.valueNode("cpuset"), m.qualify("cpuset"), "pins the app to every CPU, leaving none for the load generator",
                "leave at least one CPU out, e.g. cpuset: [${machine.cpus - 1}]")
        }
        val memNode = m.scalar("memory")
        var memory: Long? = if (urlApps.isEmpty()) Defaults.MEMORY_BYTES else null
        if (memNode != null) {
            memory = if (memNode.value == "none") null else Units.size(memNode.value)
            if (memNode.value != "none" && (memory == null || memory < Units.MIN_MEMORY || memory > Units.MAX_MEMORY)) {
                problems.at(memNode, m.qualify("memory"), "'${memNode.value}' is not a size in 64MiB..1TiB", Units.SIZE_HINT)
            }
        }
        val heapNode = m.scalar("heap")
        var heap = Defaults.HEAP_PERCENT
        if (heapNode != null) {
            val p = Units.percent(heapNode.value)
            if (p == null || p < 10 || p > 95) problems.at(heapNode, m.qualify("heap"), "'${heapNode.value}' is not a share of memory in 10%..95%", Units.PERCENT_HINT)
            else heap = p.toInt()
        }
        val startNode = m.scalar("start-cpus")
        val startOnAllCpus = when (startNode?.value) {
            null, "limited" -> false
            "all" -> true
            else -> false.also {
                problems.at(startNode, m.qualify("start-cpus"), "'${startNode.value}' is not a way to start the app",
                    "limited (the default: the CPU limits hold from the start) or all (every CPU until the app is healthy, then its limits; for suites that do not measure start-up)")
            }
        }
        if (urlApps.isNotEmpty()) {
            val named = urlApps.joinToString { "apps.$it" }
            val limits = listOfNotNull(
                cpusNode?.takeIf { it.value != "none" }?.let { "cpus" to "a CPU quota" },
                ("cpuset" to "a CPU set").takeIf { cpuset.isNotEmpty() },
                memNode?.takeIf { it.value != "none" }?.let { "memory" to "a memory limit" },
            )
            for ((key, what) in limits) {
                problems.at(m.valueNode(key), m.qualify(key), "gives $what, but $named is a url: app: a service already running elsewhere, which the lab " +
                    "cannot limit, pin or isolate", "profile: {cpus: none} for a suite with a url: app (no cpuset, no memory); limit a started app in a suite of its own")
            }
        }
        m.finish()
        return ResourceProfile(cpus, cpuset, memory, heap, startOnAllCpus)
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

/** Reads one `endpoints:` entry: its kind, strategies and parameter sweeps. */
private class EndpointReader(val m: YamlMap, val appNames: Set<String>, val ownApps: Set<String>, val problems: Problems, val folder: java.nio.file.Path,
                             val hasDatabase: Boolean = false) {
    private val kinds = listOf("noop", "cpu", "io", "downstream", "todo", "db", "http")

    fun read(): EndpointSpec? {
        val kind = m.requiredString("kind", "one of: ${kinds.joinToString()}") ?: return null.also { m.finish() }
        val only = m.scalars("apps")?.mapNotNull { node ->
            node.value.takeIf { it in appNames } ?: null.also {
                problems.at(node, m.qualify("apps"), "'${node.value}' is not an app of this suite", "apps here: ${appNames.joinToString()}")
            }
        } ?: emptyList()
        if (kind != "http") only.filter { it in ownApps }.forEach { own ->
            problems.at(m.valueNode("apps"), m.qualify("apps"), "'$own' is your own app: it serves only the endpoints you declare (kind: http), not the built-in '$kind'",
                "declare its endpoint: {kind: http, name: NAME, path: /PATH, apps: [$own]}")
        }
        if (kind == "http") return HttpEndpointReader(m, problems, folder).read()?.let { EndpointSpec.Http(it, only) }.also { m.finish() }
        val spec = when (kind) {
            "noop" -> EndpointSpec.Noop(only)
            "cpu" -> EndpointSpec.Cpu(
                strategies("strategies", CpuStrategy.entries) { CpuStrategy.byId(it) },
                params("limit", Parameter.LIMIT, Defaults.CPU_LIMIT),
                params("batch", Parameter.BATCH, Defaults.COOP_BATCH),
                only,
            )
            "io" -> EndpointSpec.Io(strategies("strategies", IoStrategy.entries) { IoStrategy.byId(it) }, delays(), only)
            "downstream" -> EndpointSpec.Downstream(strategies("clients", DownstreamClient.entries) { DownstreamClient.byId(it) }, delays(), only)
            "todo" -> EndpointSpec.Todo(methods(), only)
            "db" -> db(only)
            else -> null.also {
                problems.at(m.valueNode("kind"), m.qualify("kind"), "'$kind' is not an endpoint kind", "one of: ${kinds.joinToString()}")
            }
        }
        m.finish()
        return spec
    }

    private fun <S : Strategy> strategies(key: String, all: List<S>, byId: (String) -> S?): List<S> {
        val nodes = m.scalars(key)
        if (nodes == null) {
            problems.at(m.node, m.qualify(key), "is required", "one or more of: ${all.joinToString { it.id }}, or 'all'")
            return emptyList()
        }
        if (nodes.size == 1 && nodes[0].value == "all") return all
        return nodes.mapNotNull { node ->
            byId(node.value) ?: null.also {
                problems.at(node, m.qualify(key), "'${node.value}' is not a strategy of this endpoint", "one of: ${all.joinToString { it.id }}")
            }
        }.distinct()
    }

    private fun params(key: String, parameter: Parameter, default: Long): List<Long> {
        val nodes = m.scalars(key) ?: return listOf(default)
        return nodes.mapNotNull { node ->
            val v = node.value.replace("_", "").toLongOrNull()
            if (v == null || v !in parameter.range) {
                null.also { problems.at(node, m.qualify(key), "'${node.value}' is not a whole number in ${parameter.allowed}") }
            } else v
        }.distinct()
    }

    private fun delays(): List<Long> {
        val nodes = m.scalars("delay") ?: return listOf(Defaults.DELAY_MS)
        return nodes.mapNotNull { node ->
            val d = m.parseDuration(node, m.qualify("delay")) ?: return@mapNotNull null
            val ms = d.toMillis()
            if (ms !in Parameter.DELAY.range) null.also { problems.at(node, m.qualify("delay"), "'${node.value}' is outside ${Parameter.DELAY.allowed}") }
            else ms
        }.distinct()
    }

    /** `kind: db`: strategies, `op` (read, write), `id` and `db-delay` swept; the suite must start a database. */
    private fun db(only: List<String>): EndpointSpec.Db {
        if (!hasDatabase) problems.at(m.valueNode("kind"), m.qualify("kind"), "'db' queries the run's database, but the suite has no database:",
            "add database: {engine: postgresql, schema: ${DatabaseSpec.DEFAULT_SCHEMA}}")
        val strategies = m.scalars("strategies")?.let { nodes ->
            if (nodes.size == 1 && nodes[0].value == "all") EndpointSpec.Db.STRATEGIES
            else nodes.mapNotNull { n -> n.value.takeIf { it in EndpointSpec.Db.STRATEGIES } ?: null.also {
                problems.at(n, m.qualify("strategies"), "'${n.value}' is not a strategy of this endpoint", "one of: ${EndpointSpec.Db.STRATEGIES.joinToString()}")
            } }.distinct()
        } ?: emptyList<String>().also { problems.at(m.node, m.qualify("strategies"), "is required", "one or more of: ${EndpointSpec.Db.STRATEGIES.joinToString()}, or 'all'") }
        val ops = m.scalars("op")?.mapNotNull { n -> n.value.takeIf { it in EndpointSpec.Db.OPS } ?: null.also {
            problems.at(n, m.qualify("op"), "'${n.value}' is not read or write")
        } }?.distinct() ?: listOf("read")
        val ids = m.scalars("id")?.mapNotNull { n -> n.value.replace("_", "").toLongOrNull()?.takeIf { it in EndpointSpec.Db.IDS } ?: null.also {
            problems.at(n, m.qualify("id"), "'${n.value}' is not a whole number in ${EndpointSpec.Db.IDS.first}..${EndpointSpec.Db.IDS.last}", "the default schema's rows")
        } }?.distinct() ?: listOf(1L)
        val delays = m.scalars("db-delay")?.mapNotNull { n ->
            val ms = m.parseDuration(n, m.qualify("db-delay"))?.toMillis() ?: return@mapNotNull null
            if (ms !in EndpointSpec.Db.DELAYS_MS) null.also { problems.at(n, m.qualify("db-delay"), "'${n.value}' is outside 0..60000 ms") } else ms
        }?.distinct() ?: listOf(0L)
        return EndpointSpec.Db(strategies, ops, ids, delays, only)
    }

    private fun methods(): List<TodoMethod> {
        val nodes = m.scalars("method") ?: return listOf(TodoMethod.GET)
        return nodes.mapNotNull { node ->
            TodoMethod.entries.firstOrNull { it.name == node.value.uppercase() } ?: null.also {
                problems.at(node, m.qualify("method"), "'${node.value}' is not GET or POST")
            }
        }.distinct()
    }
}
