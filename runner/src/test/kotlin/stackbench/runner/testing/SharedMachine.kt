package stackbench.runner.testing

/**
 * How the runner's integration tests share the machine (runner/pom.xml runs them in two failsafe executions):
 * - [ALONE] (`@Tag`): the classes that run one after another, first: they measure (the known truths), assert timings
 *   or rates of their own, or look at the whole machine (processes or cgroups that any runner left);
 * - every other IT class checks a function and runs two at a time, after them; it says so with
 *   `@ResourceLock(CPUS, mode = READ)` (its app and load generator then get less CPU, which nothing it asserts depends
 *   on), and those that make network namespaces named by the test JVM's pid ([stackbench.runner.host.NamespaceMachines])
 *   also lock [NAMESPACES], which two at once would share.
 * ResourceLocksTest checks that every IT class says one or the other.
 */
object SharedMachine {
    const val ALONE = "alone"
    const val CPUS = "stackbench.machine-cpus"
    const val NAMESPACES = "stackbench.network-namespaces"
}
