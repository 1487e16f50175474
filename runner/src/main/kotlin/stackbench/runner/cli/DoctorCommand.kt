package stackbench.runner.cli

import stackbench.runner.catalog.DownstreamJar
import stackbench.runner.catalog.Stack
import stackbench.runner.catalog.ToolCatalog
import stackbench.runner.env.EnvironmentProbe
import stackbench.runner.host.ListenPorts
import stackbench.runner.install.Check
import stackbench.runner.install.DriverSetup
import stackbench.runner.install.InstallPlan
import stackbench.runner.install.Installer
import stackbench.runner.install.Privileges
import stackbench.runner.install.ToolChecks
import stackbench.runner.install.ToolProbe
import stackbench.runner.isolation.Isolation
import com.github.ajalt.clikt.core.CliktCommand
import com.github.ajalt.clikt.core.Context
import com.github.ajalt.clikt.core.ProgramResult
import com.github.ajalt.clikt.parameters.options.flag
import com.github.ajalt.clikt.parameters.options.option
import java.nio.file.Files
import java.nio.file.Path

class DoctorCommand : CliktCommand(name = "doctor") {
    override fun help(context: Context) = """
        Checks the JDK, the built apps, the tools the lab needs from outside the JDK (load generators, the system tools
        of hosts and tests, the toolchains that build oha and k6), cgroups, ports and limits, and says how to fix what is
        missing. Exits 2 when something essential is missing (with --tests: anything the tests need).
    """.trimIndent()

    private val fix by option("--fix", help = "install what is missing, then check again: what `run` needs (oha, built with cargo into .tools), " +
        "with --tests everything; the apt packages in one apt-get call as root (or through sudo), the builds side by side, their logs in .tools/logs").flag()
    private val tests by option("--tests", help = "everything the tests need too (wrk, k6, chromium, iproute2, openssh server and client, setpriv): " +
        "checked as essential, and installed by --fix (what .ci/run does)").flag()

    override fun run() {
        val probe = ToolProbe(Home.path)
        if (fix) {
            val privileges = Privileges(DriverSetup.isRoot(), DriverSetup.onPath("sudo") != null, DriverSetup.onPath("apt-get") != null)
            val plan = InstallPlan.of(ToolCatalog.all, probe::where, tests, privileges, Home.path)
            Installer(Home.tools, System.out).carry(plan, "nothing to install: everything ${if (tests) "the tests need" else "`run` needs"} is here")
            println()
        }
        val found = ToolCatalog.all.associateWith(probe::find)
        val checks = listOf(jdk(), jdks(), cpus()) + jars() + ToolChecks.of(ToolCatalog.all, found::getValue, tests, Home.path) +
            listOf(cgroups(), ports(), openFiles())
        for (c in checks) {
            println("%s %-12s %s".format(if (c.ok) "ok  " else if (c.essential) "FAIL" else "warn", c.name, c.found))
            if (!c.ok && c.fix != null) println("     %-12s fix: %s".format("", c.fix))
        }
        val missing = checks.filter { !it.ok && it.essential }
        if (missing.isNotEmpty()) {
            println()
            println("stackbench: missing${if (tests) " (for the tests)" else ""}: ${missing.joinToString(", ") { it.name }}")
            throw ProgramResult(Exit.BAD_INPUT)
        }
    }

    private fun jdk(): Check {
        val v = Runtime.version().feature()
        return Check("JDK", v >= 21, "${System.getProperty("java.vendor")} ${Runtime.version()} at ${System.getProperty("java.home")}",
            "install a JDK 21 or newer and set JAVA_HOME (virtual threads need 21)")
    }

    /** The JDKs a suite's `jdk:` can name (docs/suite-format.md, "The JDK as an axis"): informative, never a failure. */
    private fun jdks(): Check {
        val found = stackbench.runner.sut.AppJdk.installed(Home.path)
        val features = found.map { it.release.feature }.toSet()
        val absent = listOf(17, 21, 25).filter { it !in features }
        return Check("JDKs (jdk:)", absent.isEmpty(), found.joinToString("; ") { "${it.release.feature}: $it" }.ifEmpty { "none found" },
            absent.joinToString(" ") { "JDK $it for suites/jdk.yaml: ${stackbench.runner.jdk.JdkChoice.installHint(it)}." }, essential = false)
    }

    private fun cpus(): Check {
        val n = EnvironmentProbe.machineCpus()
        return Check("CPUs", n >= 2, "$n logical CPUs", "with one CPU the app and the load generator cannot be kept apart; results will be flagged", essential = false)
    }

    private fun jars(): List<Check> {
        val missing = Stack.entries.map { it.jarPath(Home.path) } + listOf(Home.path.resolve(DownstreamJar.PATH)) // a Path is an Iterable of its names: plus(Path) would add those
        val absent = missing.filter { !Files.isRegularFile(it) }
        return listOf(Check("apps built", absent.isEmpty(), if (absent.isEmpty()) "${missing.size} jars" else "missing: ${absent.joinToString { Home.path.relativize(it).toString() }}",
            // a warning, not a failure: `run` builds them on first use and the tests build them, so a fresh clone's doctor
            // (which builds the runner alone) is not a failed one
            "./stackbench build   (run and test build them on first use)", essential = false))
    }

    private fun cgroups(): Check {
        val iso = Isolation.detect()
        return Check("cgroups", iso.limitation == null, if (iso.limitation == null) "${iso.kind}: CPU quota, CPU set and memory limits can be applied" else iso.limitation!!,
            "run as root on a machine with cgroup v1 cpu/cpuset/memory or cgroup v2 with those controllers; otherwise cells run pinned with taskset only",
            essential = false)
    }

    private fun ports(): Check = runCatching {
        val listen = ListenPorts(isFree = ListenPorts.bindable("127.0.0.1"))
        val ports = (1..3).map { listen.next() }
        Check("ports", true, "127.0.0.1 binds free ports (e.g. ${ports.joinToString()}) in ${listen.range}, outside the ephemeral range ${ListenPorts.ephemeralRange()}")
    }.getOrElse { Check("ports", false, "cannot bind 127.0.0.1: ${it.message}", "check the loopback interface") }

    private fun openFiles(): Check {
        val limit = runCatching {
            Files.readAllLines(Path.of("/proc/self/limits")).first { it.startsWith("Max open files") }.split(Regex("\\s{2,}"))[1].trim().toLong()
        }.getOrNull()
        return Check("open files", (limit ?: 0) >= 16_384, "limit ${limit ?: "unknown"}",
            "ulimit -n 65536 (the ./stackbench launcher raises it); thousands of connections need thousands of descriptors", essential = false)
    }
}
