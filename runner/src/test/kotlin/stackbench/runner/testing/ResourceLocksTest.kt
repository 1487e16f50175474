package stackbench.runner.testing

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.parallel.ResourceLock
import stackbench.runner.isolation.SchedPolicy
import java.nio.file.Files
import java.nio.file.Path

/**
 * The integration tests run up to three classes at a time: a class that said neither that it measures ([Foreground])
 * nor that it checks a function at idle priority ([Background]) would run at normal priority beside a known truth.
 */
class ResourceLocksTest {
    private val classes: Path = Path.of(SharedMachine::class.java.protectionDomain.codeSource.location.toURI())

    private fun integrationTests(): List<Class<*>> = Files.walk(classes).use { files ->
        files.filter { it.fileName.toString().endsWith("IT.class") && '$' !in it.fileName.toString() }.toList()
    }.map { Class.forName(classes.relativize(it).toString().removeSuffix(".class").replace('/', '.')) }

    private fun foreground(c: Class<*>) = c.isAnnotationPresent(Foreground::class.java)
    private fun background(c: Class<*>) = c.isAnnotationPresent(Background::class.java)
    private fun locksNamespaces(c: Class<*>) = c.getAnnotationsByType(ResourceLock::class.java).any { it.value == SharedMachine.NAMESPACES }

    @Test
    fun `every integration test class either measures in the foreground or checks a function in the background`() {
        val found = integrationTests()
        assertThat(found).`as`("IT classes under $classes").hasSizeGreaterThan(10)
        assertThat(found.filter { !foreground(it) && !background(it) }.map { it.simpleName })
            .`as`("IT classes with neither @Foreground nor @Background").isEmpty()
        assertThat(found.filter { foreground(it) && background(it) }.map { it.simpleName }).`as`("IT classes that say both").isEmpty()
    }

    @Test
    fun `every background class holds one of the two lanes, so a worker is always left for the foreground`() {
        val lanes = listOf(SharedMachine.LANE_1, SharedMachine.LANE_2)
        val held = integrationTests().filter { background(it) }.associate { c ->
            c.simpleName to c.getAnnotationsByType(ResourceLock::class.java).map { it.value }.filter { it in lanes }
        }
        assertThat(held.filterValues { it.size != 1 }.keys).`as`("background classes without exactly one lane").isEmpty()
    }

    @Test
    fun `the known truths run in the foreground with nothing beside them`() {
        val truths = integrationTests().filter { it.simpleName.contains("KnownTruth") }
        assertThat(truths).isNotEmpty().allSatisfy {
            assertThat(foreground(it)).`as`(it.simpleName).isTrue()
            assertThat(it.isAnnotationPresent(org.junit.jupiter.api.parallel.Isolated::class.java)).`as`("${it.simpleName} @Isolated").isTrue()
        }
    }

    @Test
    fun `every class that makes network namespaces locks them, foreground or background`() {
        // the namespaces are named by the test JVM's pid: two classes making them at once would share them
        val makers = integrationTests().filter { c -> c.simpleName in listOf("NetnsHostIT", "SshHostIT", "SshDownstreamIT", "RttKnownTruthIT", "SplitHostsIT") }
        assertThat(makers).hasSize(5).allSatisfy { assertThat(locksNamespaces(it)).`as`(it.simpleName).isTrue() }
    }

    @Test
    fun `a background call runs at idle priority with what it starts, and leaves the caller's priority alone`() {
        fun policyOf(stat: String) = SchedPolicy.parse(stat)
        val before = policyOf(Files.readString(Path.of("/proc/thread-self/stat")))
        val childStat = IdlePriority.idle { ProcessBuilder("cat", "/proc/self/stat").start().inputStream.readAllBytes().decodeToString() }
        assertThat(policyOf(childStat)).`as`("a process started by a background call").isEqualTo(SchedPolicy.IDLE)
        val own = Files.readString(Path.of("/proc/thread-self/stat"))
        assertThat(policyOf(own)).`as`("the calling thread after the call").isEqualTo(before)
    }
}
