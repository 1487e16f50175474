package stackbench.runner.host

import stackbench.runner.suite.HostSpec
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration

/**
 * "Remote machines" for tests, made from network namespaces of this machine: a bridge, a namespace per machine
 * ([LabNetwork] with a test tag `sbt<pid>`), an sshd in each (a throwaway host key, a throwaway client key, its
 * own config listening on the namespace's address). [close] stops the sshds and removes the network.
 */
class NamespaceMachines(names: List<String>, private val dir: Path) : AutoCloseable {
    val network: LabNetwork = LabNetwork.open(NetworkPlan.of("sbt${ProcessHandle.current().pid()}", names.map { HostSpec.Netns(it) }, LabNetwork.takenSubnets()))
    val clientKey: Path = dir.resolve("id_ed25519")
    val knownHosts: Path = dir.resolve("known_hosts")
    private val sshds = mutableListOf<Process>()

    init {
        try {
            keygen(clientKey)
            Files.copy(dir.resolve("id_ed25519.pub"), dir.resolve("authorized_keys"))
            Files.createDirectories(Path.of("/run/sshd")) // sshd's privilege separation folder
            for (link in network.plan.links) startSshd(link)
        } catch (e: Exception) {
            close()
            throw e
        }
    }

    fun address(name: String): String = network.plan.links.first { it.host == name }.address

    fun namespace(name: String): String = network.plan.links.first { it.host == name }.namespace

    /** The suite's view of machine [name]: root over ssh with the throwaway key. */
    fun ssh(name: String) = HostSpec.Ssh(name, address(name), "root", clientKey.toString(), 22,
        java = Path.of(System.getProperty("java.home"), "bin", "java").toString())

    private fun keygen(key: Path) {
        val p = ProcessBuilder("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", key.toString()).redirectErrorStream(true).start()
        check(p.waitFor() == 0) { "ssh-keygen failed: " + p.inputStream.bufferedReader().readText() }
    }

    private fun startSshd(link: NetnsLink) {
        val hostKey = dir.resolve("host_${link.host}")
        keygen(hostKey)
        val config = dir.resolve("sshd_${link.host}.conf")
        Files.writeString(config, """
            ListenAddress ${link.address}
            Port 22
            HostKey $hostKey
            AuthorizedKeysFile ${dir.resolve("authorized_keys")}
            PermitRootLogin prohibit-password
            PasswordAuthentication no
            KbdInteractiveAuthentication no
            UsePAM no
            StrictModes no
            PidFile none
            Subsystem sftp /usr/lib/openssh/sftp-server
        """.trimIndent() + "\n")
        val sshd = ProcessBuilder(ParentDeath.wrap(listOf("ip", "netns", "exec", link.namespace, "/usr/sbin/sshd", "-D", "-e", "-f", config.toString())))
            .redirectErrorStream(true).redirectOutput(dir.resolve("sshd_${link.host}.log").toFile()).start()
        sshds += sshd
        val deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos()
        while (true) {
            val up = runCatching { java.net.Socket().use { it.connect(java.net.InetSocketAddress(link.address, 22), 500) } }.isSuccess
            if (up) return
            check(sshd.isAlive && System.nanoTime() < deadline) { "sshd in ${link.namespace} did not start: " + Files.readString(dir.resolve("sshd_${link.host}.log")) }
            Thread.sleep(50)
        }
    }

    override fun close() {
        // sshd -D's sessions are its children: the group goes with it
        sshds.forEach { p -> p.descendants().forEach { it.destroyForcibly() }; p.destroyForcibly(); p.waitFor() }
        network.close()
    }

    companion object {
        /** Every namespace and link on this machine whose name holds [tag]: what must be gone after a test. */
        fun leftoversOf(tag: String): List<String> {
            val netns = Commands.run(listOf("ip", "netns", "list")).second.lines().map { it.substringBefore(' ') }.filter { it.startsWith("$tag-") }
            val links = Commands.run(listOf("ip", "-o", "link")).second.lines()
                .mapNotNull { Regex("""^\d+:\s+([^:@\s]+)""").find(it)?.groupValues?.get(1) }.filter { it == "${tag}br" || it.matches(Regex("${tag}[hn]\\d+")) }
            return netns + links
        }

        /** Whether this machine lets the tests make namespaces (root, ip, nsenter). */
        fun available(): Boolean = runCatching { Commands.run(listOf("ip", "netns", "list")).first == 0 }.getOrDefault(false) &&
            ProcessHandle.current().info().user().orElse("") == "root"
    }
}
