package stackbench.runner.testing

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Tag
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.parallel.ResourceAccessMode
import org.junit.jupiter.api.parallel.ResourceLock
import java.nio.file.Files
import java.nio.file.Path

/**
 * The shared failsafe execution runs two IT classes at a time: a class that said neither that it runs alone nor that
 * it may share would land there unseen, beside another class's app.
 */
class ResourceLocksTest {
    private val classes: Path = Path.of(SharedMachine::class.java.protectionDomain.codeSource.location.toURI())

    private fun integrationTests(): List<Class<*>> = Files.walk(classes).use { files ->
        files.filter { it.fileName.toString().endsWith("IT.class") && '$' !in it.fileName.toString() }.toList()
    }.map { Class.forName(classes.relativize(it).toString().removeSuffix(".class").replace('/', '.')) }

    private fun alone(c: Class<*>) = c.getAnnotationsByType(Tag::class.java).any { it.value == SharedMachine.ALONE }
    private fun shares(c: Class<*>) = c.getAnnotationsByType(ResourceLock::class.java).any { it.value == SharedMachine.CPUS && it.mode == ResourceAccessMode.READ }

    @Test
    fun `every integration test class either runs alone or says it may share the machine's CPUs`() {
        val found = integrationTests()
        assertThat(found).`as`("IT classes under $classes").hasSizeGreaterThan(10)
        assertThat(found.filter { !alone(it) && !shares(it) }.map { it.simpleName })
            .`as`("IT classes with neither @Tag(SharedMachine.ALONE) nor @ResourceLock(SharedMachine.CPUS, mode = READ)").isEmpty()
        assertThat(found.filter { alone(it) && shares(it) }.map { it.simpleName }).`as`("IT classes that say both").isEmpty()
    }

    @Test
    fun `the known truths run alone`() {
        val truths = integrationTests().filter { it.simpleName.contains("KnownTruth") }
        assertThat(truths).isNotEmpty().allSatisfy { assertThat(alone(it)).`as`(it.simpleName).isTrue() }
    }
}
