package stackbench.runner.testing

import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.extension.ExtendWith
import org.junit.jupiter.api.parallel.ResourceLock

/**
 * How the runner's integration tests share the machine. One failsafe execution (runner/pom.xml) runs them, up to three
 * classes at a time, then the known truths:
 * - a known truth (`@Foreground` and JUnit's `@Isolated`) measures, and runs with nothing beside it, after the others:
 *   a neighbour at idle CPU priority still moved their figures (the delay truth's 1 ms path from 4.9 to 9.9 ms, the
 *   stall truth's p99 from 510 to 1,680 ms, beside the apps' contract tests; docs/testing.md);
 * - a [Foreground] class runs at normal CPU priority, one at a time (the [FOREGROUND] lock): the classes that assert
 *   timings or rates of their own;
 * - every other class ([Background]) checks a function, and runs beside them at idle CPU priority ([IdlePriority]):
 *   its threads, the processes it starts and their cgroups run only on CPU time that the foreground class leaves, which
 *   on this lab's wait-bound truths is most of it. Each holds one of two lanes ([LANE_1], [LANE_2]), so at most two
 *   run at a time and a worker is always left for the foreground (a worker whose class waits for a lock blocks; the
 *   pool then starts a spare one, up to its max-pool-size);
 * - those that make network namespaces named by the test JVM's pid ([stackbench.runner.host.NamespaceMachines]) also
 *   lock [NAMESPACES], which two at once would share.
 * ResourceLocksTest checks that every IT class says one or the other.
 */
object SharedMachine {
    const val FOREGROUND = "stackbench.foreground"
    const val NAMESPACES = "stackbench.network-namespaces"
    const val LANE_1 = "stackbench.background-lane-1"
    const val LANE_2 = "stackbench.background-lane-2"
}

/** An IT class that measures or times something: normal CPU priority, one such class at a time. */
@Target(AnnotationTarget.CLASS)
@Retention(AnnotationRetention.RUNTIME)
@Tag("foreground")
@ResourceLock(SharedMachine.FOREGROUND)
annotation class Foreground

/** An IT class that checks a function: it runs beside a [Foreground] class, at idle CPU priority. */
@Target(AnnotationTarget.CLASS)
@Retention(AnnotationRetention.RUNTIME)
@Tag("background")
@ExtendWith(IdlePriority::class)
annotation class Background
