package stackbench.runner.report

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test

class ProbeSectionTest {
    @Test
    fun `every probe's section is found without a list to keep, in its order, each with its own anchor`() {
        assertThat(ProbeSection.ALL).containsExactly(ProfilesSection, AllocationSection)
        assertThat(ProbeSection.ALL.map { it.id }).doesNotHaveDuplicates()
    }
}
