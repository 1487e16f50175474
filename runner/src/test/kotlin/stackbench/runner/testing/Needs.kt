package stackbench.runner.testing

import org.junit.jupiter.api.Assertions.fail
import org.junit.jupiter.api.Assumptions.assumeTrue

/**
 * What an integration test needs from the machine (a tool, a privilege, a built jar). On a contributor's machine a
 * missing one skips the test with the reason; under `CI=true` it fails the test naming what is missing, so that a CI
 * machine without root, sshd or k6 never passes with cgroups, namespaces or split hosts untested. (.ci/run installs
 * everything a test needs: `./stackbench doctor --fix`.)
 */
object Needs {
    val inCi: Boolean get() = System.getenv("CI") == "true"

    fun that(present: Boolean, what: String) {
        if (present) return
        if (inCi) fail<Unit>("missing on this CI machine: $what (under CI=true an integration test never skips for a missing tool or privilege)")
        assumeTrue(false, "skipped: $what")
    }
}
