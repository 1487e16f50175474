package stackbench.runner.cli

import stackbench.runner.cell.Lab
import stackbench.runner.env.EnvironmentProbe
import stackbench.runner.host.LocalHost
import stackbench.runner.host.ProcessRegistry
import stackbench.runner.host.RoleHosts
import stackbench.runner.install.DriverSetup
import stackbench.runner.isolation.Isolation
import stackbench.runner.results.Json
import stackbench.runner.sut.Http
import java.io.PrintStream

/** Builds the [Lab] a run works in: this machine as the host, cgroups if writable, the drivers. */
object LabFactory {
    fun create(out: PrintStream, drivers: DriverSetup = DriverSetup(Home.path, out), registry: ProcessRegistry = ProcessRegistry(),
               hosts: RoleHosts = RoleHosts.single(LocalHost(registry)), fastStart: Boolean = false): Lab {
        return Lab(
            home = Home.path,
            java = Home.java,
            machineCpus = EnvironmentProbe.machineCpus(),
            isolation = Isolation.detect(),
            hosts = hosts,
            registry = registry,
            http = Http(),
            json = Json.mapper,
            driver = { kind -> drivers.ready(kind) },
            fastStart = fastStart,
        )
    }
}
