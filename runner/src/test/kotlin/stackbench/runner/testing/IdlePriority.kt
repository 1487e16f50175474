package stackbench.runner.testing

import org.junit.jupiter.api.extension.ExtensionContext
import org.junit.jupiter.api.extension.InvocationInterceptor
import org.junit.jupiter.api.extension.InvocationInterceptor.Invocation
import org.junit.jupiter.api.extension.ReflectiveInvocationContext
import java.lang.reflect.Constructor
import java.lang.reflect.Method
import java.nio.file.Files
import java.nio.file.Path
import java.util.concurrent.Callable
import java.util.concurrent.ExecutionException
import java.util.concurrent.Executors
import java.util.concurrent.TimeUnit

/**
 * Runs a [Background] class's constructor, lifecycle methods and tests on a thread of its own at idle CPU priority
 * (SCHED_IDLE, `chrt --idle`): on Linux the policy is a thread's, and every thread and process started from it inherits
 * it, so the runners, apps, load generators, browsers and databases the test starts run only on CPU time that nothing at
 * normal priority wants (a runner at idle priority marks its cgroups `cpu.idle`, isolation/SchedPolicy). One thread for
 * the whole class, ended after its last call: a child started with a parent-death signal (host/ParentDeath) dies with
 * the thread that started it, so an sshd started in `@BeforeEach` must not lose its thread before the test. The pool's
 * own threads, which also run [Foreground] classes, keep their normal priority.
 */
class IdlePriority : InvocationInterceptor {
    override fun <T : Any> interceptTestClassConstructor(
        invocation: Invocation<T>, invocationContext: ReflectiveInvocationContext<Constructor<T>>, extensionContext: ExtensionContext,
    ): T = idle(invocation, extensionContext)

    override fun interceptBeforeAllMethod(invocation: Invocation<Void?>, ctx: ReflectiveInvocationContext<Method>, ext: ExtensionContext) {
        idle(invocation, ext)
    }

    override fun interceptAfterAllMethod(invocation: Invocation<Void?>, ctx: ReflectiveInvocationContext<Method>, ext: ExtensionContext) {
        idle(invocation, ext)
    }

    override fun interceptBeforeEachMethod(invocation: Invocation<Void?>, ctx: ReflectiveInvocationContext<Method>, ext: ExtensionContext) {
        idle(invocation, ext)
    }

    override fun interceptAfterEachMethod(invocation: Invocation<Void?>, ctx: ReflectiveInvocationContext<Method>, ext: ExtensionContext) {
        idle(invocation, ext)
    }

    override fun interceptTestMethod(invocation: Invocation<Void?>, ctx: ReflectiveInvocationContext<Method>, ext: ExtensionContext) {
        idle(invocation, ext)
    }

    override fun interceptTestTemplateMethod(invocation: Invocation<Void?>, ctx: ReflectiveInvocationContext<Method>, ext: ExtensionContext) {
        idle(invocation, ext)
    }

    /** The class's idle thread, made at its first call and ended when JUnit closes the class's store. */
    private fun <T> idle(invocation: Invocation<T>, ext: ExtensionContext): T {
        val classContext = generateSequence(ext) { it.parent.orElse(null) }.first { it.testMethod.isEmpty && it.testClass.isPresent }
        val thread = classContext.getStore(NAMESPACE)
            .getOrComputeIfAbsent("thread", { IdleThread(classContext.requiredTestClass.simpleName) }, IdleThread::class.java)
        return thread.run { invocation.proceed() }
    }

    /** One thread at idle priority; [run] hands it a call and waits for its outcome, value or exception. */
    class IdleThread(name: String) : AutoCloseable, ExtensionContext.Store.CloseableResource {
        private val executor = Executors.newSingleThreadExecutor { r -> Thread(r, "idle-$name") }

        init {
            run { enter() }
        }

        fun <T> run(call: () -> T): T = try {
            executor.submit(Callable { call() }).get()
        } catch (e: ExecutionException) {
            throw e.cause ?: e
        }

        override fun close() {
            executor.shutdown()
        }
    }

    companion object {
        private val NAMESPACE = ExtensionContext.Namespace.create(IdlePriority::class.java)

        /** Runs [call] on a new thread at idle priority, for a caller outside JUnit's lifecycle (the extension's own test). */
        fun <T> idle(call: () -> T): T = IdleThread("call").use { it.run(call) }

        /** Puts the calling thread at idle CPU priority (`chrt --idle -p 0 <tid>`); fails naming why it could not. */
        fun enter() {
            val tid = Files.readSymbolicLink(Path.of("/proc/thread-self")).fileName.toString()
            val chrt = ProcessBuilder("chrt", "--idle", "-p", "0", tid).redirectErrorStream(true).start()
            val said = chrt.inputStream.readAllBytes().decodeToString().trim()
            check(chrt.waitFor(10, TimeUnit.SECONDS) && chrt.exitValue() == 0) {
                "chrt --idle -p 0 $tid could not put a background test's thread at idle CPU priority (util-linux's chrt): $said"
            }
        }
    }
}
