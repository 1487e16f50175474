package stackbench.runner.host

import stackbench.runner.isolation.Confinement
import stackbench.runner.suite.HostSpec
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.TimeUnit

/**
 * Another machine, reached with the OpenSSH client (`ssh`, `scp`, key-based, `BatchMode=yes`: never a password
 * prompt). The run has a folder there ([dir], `/tmp/stackbench-<tag>`) holding the files roles need ([stage]) and
 * [WRAPPER], through which every role starts: the role runs in its own process group, its output comes back
 * over the ssh connection into the local log, and when its ssh session's standard input ends (the runner
 * closes it to stop the role, or the connection drops because the runner died) the wrapper sends the group
 * SIGTERM, waits the grace period, then SIGKILL. [close] ends every session and removes the folder.
 *
 * Local cgroups do not reach another machine: a role there is pinned to the host's `cpus` (taskset) only.
 */
class SshHost(
    val spec: HostSpec.Ssh,
    private val registry: ProcessRegistry,
    tag: String,
    /** A known_hosts file of the lab's own (tests), or null for ssh's own with unknown hosts accepted on first use. */
    private val knownHosts: Path? = null,
) : Host, AutoCloseable {
    override val name: String get() = spec.name
    override val kind get() = "ssh"
    override val address: String get() = spec.address

    /** The run's folder on the remote machine. */
    val dir = "/tmp/stackbench-$tag"

    private val staged = ConcurrentHashMap<Path, String>()
    private val pidFiles = ConcurrentHashMap<ChildProcess, String>()
    private val sessions = ConcurrentHashMap.newKeySet<ChildProcess>()
    private var launches = 0

    private fun options(): List<String> = buildList {
        add("-o"); add("BatchMode=yes")
        add("-o"); add("ConnectTimeout=10")
        add("-o"); add("ServerAliveInterval=5")
        add("-o"); add("ServerAliveCountMax=3")
        knownHosts?.let { add("-o"); add("UserKnownHostsFile=$it") }
        add("-o"); add("StrictHostKeyChecking=accept-new")
        spec.key?.let { add("-i"); add(it) }
    }

    private fun ssh(remote: String): List<String> = listOf("ssh") + options() + listOf("-p", spec.port.toString(), "${spec.user}@${spec.address}", remote)

    /** Runs a short [command] there (its words quoted for the remote shell) and returns its exit status and output. */
    fun exec(command: List<String>, timeout: Duration = Duration.ofSeconds(30)): Pair<Int, String> =
        Commands.run(ssh(command.joinToString(" ") { quote(it) }), timeout.seconds)

    private fun shell(script: String): Pair<Int, String> = Commands.run(ssh(script))

    override fun stage(file: Path): String = staged.computeIfAbsent(file.toAbsolutePath()) { local ->
        val remote = "$dir/${local.fileName}"
        val scp = listOf("scp") + options() + listOf("-q", "-P", spec.port.toString(), local.toString(), "${spec.user}@${spec.address}:$remote")
        val (status, out) = Commands.run(scp, 600)
        check(status == 0) { "could not copy $local to ${spec.name} (${spec.address}): ${out.trim()}" }
        remote
    }

    override fun java(local: Path): String = spec.java

    override fun launch(spec: LaunchSpec): ChildProcess {
        Files.createDirectories(spec.log.parent)
        val n = synchronized(this) { ++launches }
        val pidFile = "$dir/${spec.role}-$n.pid"
        val command = buildList {
            if (spec.env.isNotEmpty()) { add("env"); spec.env.forEach { (k, v) -> add("$k=$v") } }
            if (this@SshHost.spec.cpus.isNotEmpty()) { add("taskset"); add("-c"); add(this@SshHost.spec.cpus.joinToString(",")) }
            addAll(spec.command)
        }
        val remote = (listOf("sh", "$dir/$WRAPPER", pidFile, spec.workDir?.toString() ?: dir, GRACE_SECONDS.toString()) + command).joinToString(" ") { quote(it) }
        val builder = ProcessBuilder(ParentDeath.wrap(ssh(remote))).redirectOutput(spec.log.toFile())
        if (spec.stderr == null) builder.redirectErrorStream(true) else builder.redirectError(spec.stderr.toFile())
        val startNanos = System.nanoTime()
        val child = ChildProcess(spec.role, builder.start(), spec.log, registry, startNanos, stopper = ::endSession)
        registry.remember(child)
        pidFiles[child] = pidFile
        sessions += child
        return child
    }

    /** Ends a role: its session's input closes, the wrapper stops the group (TERM, grace, KILL); then the session. */
    private fun endSession(process: Process, grace: Duration): Boolean {
        runCatching { process.outputStream.close() }
        val waited = runCatching { process.waitFor(grace.toMillis() + GRACE_SECONDS * 1000 + 3000, TimeUnit.MILLISECONDS) }.getOrDefault(false)
        if (waited) return true
        ProcessStop.stop(process, Duration.ofSeconds(1))
        return false
    }

    /** The remote pid of a role started here (its process group's leader), once the wrapper has written it. */
    fun remotePid(child: ChildProcess): Long? {
        val file = pidFiles[child] ?: return null
        return exec(listOf("cat", file)).takeIf { it.first == 0 }?.second?.trim()?.toLongOrNull()
    }

    /** Only ports no socket there uses (from /proc/net/tcp*), outside its ephemeral range, and none of the last handed out ([ListenPorts]). */
    override fun freePort(): Int {
        val (status, out) = exec(listOf("cat", "/proc/net/tcp", "/proc/net/tcp6"))
        check(status == 0) { "could not read the ports in use on ${spec.name}: ${out.trim()}" }
        val used = portsIn(out)
        return runCatching { ports.next { it !in used } }
            .getOrElse { throw IllegalStateException("on ${spec.name}, ${used.size} ports in use: ${it.message}", it) }
    }

    /** Ports outside the host's own ephemeral range (read once; Linux's default where it cannot be read), none of its last 2,000 again. */
    private val ports: ListenPorts by lazy {
        val (status, out) = exec(listOf("cat", "/proc/sys/net/ipv4/ip_local_port_range"))
        val ephemeral = if (status == 0) runCatching { ListenPorts.parseRange(out.lines().first()) }.getOrNull() else null
        ListenPorts(ephemeral ?: ListenPorts.LINUX_DEFAULT, isFree = { true }) // the runner cannot bind there: each call checks the ports in use
    }

    override fun close() {
        sessions.forEach { runCatching { it.stop(Duration.ofSeconds(2)) } }
        sessions.clear()
        // any process of the run still there (a session lost earlier) ends with its group; then the folder goes
        shell("for f in $dir/*.pid; do [ -f \"\$f\" ] && kill -s KILL -- -\$(cat \"\$f\") 2>/dev/null; done; rm -rf $dir")
    }

    companion object {
        const val WRAPPER = "run-role.sh"
        const val GRACE_SECONDS = 5

        /**
         * The wrapper (arguments: pid file, working folder, grace seconds, the command): starts the command in a
         * new session (its own process group), records its pid, and when its own standard input ends — the
         * runner closed it, or the connection dropped — sends the group SIGTERM, then SIGKILL after the grace.
         * It exits only once its watcher (a fork that carries the wrapper's own command line) has been reaped and the
         * group is gone (at most 3 s more), so a caller that saw the session end finds none of the role's processes.
         */
        val WRAPPER_SCRIPT = """
            pidfile=${'$'}1; cd "${'$'}2" || exit 126; grace=${'$'}3; shift 3
            exec 3<&0
            setsid "${'$'}@" < /dev/null 3<&- &
            pid=${'$'}!
            echo ${'$'}pid > "${'$'}pidfile"
            ( cat <&3 > /dev/null; kill -s TERM -- -${'$'}pid 2>/dev/null; n=0
              while [ ${'$'}n -lt ${'$'}((grace * 10)) ] && kill -s 0 -- -${'$'}pid 2>/dev/null; do sleep 0.1; n=${'$'}((n + 1)); done
              kill -s KILL -- -${'$'}pid 2>/dev/null ) > /dev/null 2>&1 &
            watcher=${'$'}!
            wait ${'$'}pid; status=${'$'}?
            kill -s KILL -- -${'$'}pid 2>/dev/null
            pkill -P ${'$'}watcher 2>/dev/null; kill -s KILL ${'$'}watcher 2>/dev/null; wait ${'$'}watcher 2>/dev/null
            n=0; while [ ${'$'}n -lt 30 ] && kill -s 0 -- -${'$'}pid 2>/dev/null; do sleep 0.1; n=${'$'}((n + 1)); done
            exit ${'$'}status
        """.trimIndent()

        /** Connects to [spec], makes the run's folder and writes the wrapper there; fails naming ssh's own words. */
        fun open(spec: HostSpec.Ssh, registry: ProcessRegistry, tag: String, knownHosts: Path? = null): SshHost {
            val host = SshHost(spec, registry, tag, knownHosts)
            val script = Confinement.shellQuote(WRAPPER_SCRIPT)
            val (status, out) = host.shell("mkdir -p ${host.dir} && printf '%s\\n' $script > ${host.dir}/$WRAPPER && echo ready")
            check(status == 0 && out.contains("ready")) {
                "cannot reach ssh host ${spec.name} (${spec.user}@${spec.address}:${spec.port}): ${out.trim().ifEmpty { "ssh exited with status $status" }}" +
                    " — the lab logs in with a key only (BatchMode): check the key, the user and that sshd runs there"
            }
            return host
        }

        /** Local ports of every socket in /proc/net/tcp and tcp6 text. */
        fun portsIn(procNetTcp: String): Set<Int> = procNetTcp.lines().mapNotNull { line ->
            Regex("""^\s*\d+:\s+[0-9A-Fa-f]+:([0-9A-Fa-f]{4})\s""").find(line)?.groupValues?.get(1)?.toInt(16)
        }.toSet()

        fun quote(s: String): String = if (s.matches(Regex("[A-Za-z0-9_./=:,@%+-]+"))) s else Confinement.shellQuote(s)
    }
}
