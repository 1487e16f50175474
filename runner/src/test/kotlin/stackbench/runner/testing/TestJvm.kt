package stackbench.runner.testing

/** JVM flags for the apps of tests that check a function or the instrument, not an app's speed. */
object TestJvm {
    /**
     * C1 alone: what the app answers does not depend on the JIT's tier, and on one CPU C2 is what keeps a new JVM busy
     * (a Tomcat jar started in 10.5-10.7 s with this, 18.5-21.4 s without; docs/testing.md). The known truths' suites
     * name the same flag in their `jvm-args`.
     */
    const val C1_ONLY = "-XX:TieredStopAtLevel=1"
}
