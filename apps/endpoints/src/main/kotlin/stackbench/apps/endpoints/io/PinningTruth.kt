package stackbench.apps.endpoints.io

import org.slf4j.LoggerFactory
import org.springframework.stereotype.Component
import stackbench.apps.endpoints.config.StackbenchProperties

/**
 * The known-truth pinning mode of `/io/blocking` (`stackbench.pinning-truth.enabled`): the request's sleep happens
 * inside a class initializer ([ClassInitSleep], defined anew for every sleep by a class loader of its own), and a
 * virtual thread that blocks while a class initializer is on its stack stays mounted: it pins its carrier for the
 * whole sleep, on JDK 21 and on JDK 24+ alike (JEP 491 unpinned `synchronized`, not class initialization). With N
 * carriers (the scheduler's parallelism: the available processors), N sleeps of D ms run at once, so the app answers
 * at most N ÷ D, whatever the virtual threads: the truth the lab's pinning probe and ceiling are checked against.
 * On platform threads the sleep is an ordinary one. Off: [sleep] is never called.
 */
@Component
class PinningTruth(properties: StackbenchProperties) {
    val on: Boolean = properties.pinningTruth.enabled

    init {
        if (on) {
            log.info("stackbench: pinning truth ON: /io/blocking sleeps inside a class initializer, which pins a virtual thread's " +
                "carrier for the whole sleep: not a benchmark run")
        }
    }

    /** Sleeps [nanos] inside the static initializer of a class loaded for this call alone. */
    fun sleep(nanos: Long) = sleepInClassInit(nanos)

    companion object {
        private val log = LoggerFactory.getLogger(PinningTruth::class.java)
        private val pending = ThreadLocal<Long>()
        private val template: ByteArray by lazy {
            val resource = ClassInitSleep::class.java.name.replace('.', '/') + ".class"
            ClassInitSleep::class.java.classLoader.getResourceAsStream(resource)?.use { it.readAllBytes() }
                ?: error("the class file $resource is not on the class path")
        }

        /** Sleeps [nanos] in a fresh [ClassInitSleep]'s class initializer. */
        fun sleepInClassInit(nanos: Long) {
            pending.set(nanos)
            try {
                Class.forName(ClassInitSleep::class.java.name, true, OneClassLoader(ClassInitSleep::class.java.name, template))
            } finally {
                pending.remove()
            }
        }

        /** Called by [ClassInitSleep]'s class initializer: the sleep that pins. */
        @JvmStatic
        fun sleepPending() {
            val nanos = pending.get() ?: return
            Thread.sleep(nanos / 1_000_000, (nanos % 1_000_000).toInt())
        }
    }

    /** Defines one class from [bytes] and delegates every other name to the app's own loader. */
    private class OneClassLoader(private val name: String, private val bytes: ByteArray) : ClassLoader(ClassInitSleep::class.java.classLoader) {
        override fun loadClass(className: String, resolve: Boolean): Class<*> {
            if (className != name) return super.loadClass(className, resolve)
            synchronized(getClassLoadingLock(className)) {
                return findLoadedClass(className) ?: defineClass(className, bytes, 0, bytes.size)
            }
        }
    }
}

/** A class whose static initializer sleeps ([PinningTruth.sleepPending]); [PinningTruth] loads it anew for each sleep. */
class ClassInitSleep {
    companion object {
        init {
            PinningTruth.sleepPending()
        }
    }
}
