package stackbench.apps.endpoints.info

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import stackbench.contract.AppInfo
import stackbench.contract.Pool

class StartupReportTest {

    @Test
    fun `one line with the stack, versions and every pool`() {
        val info = AppInfo(
            "tomcat", "servlet", "4.1.1", "7.0.9", "Apache Tomcat", "11.0.24", "25.0.3 (Eclipse Adoptium)",
            "OpenJDK 64-Bit Server VM", listOf("G1 Young Generation", "G1 Old Generation"), 768L * 1024 * 1024, 1, false,
            "platform threads",
            listOf(Pool("tomcat.threads", 200, "threads", "runtime"), Pool("stackbench.io-pool", null, "threads", "default")),
        )
        assertThat(StartupReport.line(info)).isEqualTo(
            "stackbench: stack=tomcat model=servlet boot=4.1.1 framework=7.0.9 server=\"Apache Tomcat/11.0.24\" " +
                "jdk=\"25.0.3 (Eclipse Adoptium)\" gc=[G1 Young Generation,G1 Old Generation] heapMax=768m processors=1 " +
                "virtualThreads=false requestExecution=\"platform threads\" " +
                "pools=[tomcat.threads=200(runtime) stackbench.io-pool=unbounded(default)]",
        )
        assertThat(StartupReport.line(info)).doesNotContain("\n")
    }
}
