package stackbench.runner.database

import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.attribute.PosixFilePermissions

class DatabaseFoldersTest {
    @Test
    fun `a folder others may not enter on the way to the cluster is named, the outermost first`(@TempDir tmp: Path) {
        val outer = Files.createDirectories(tmp.resolve("outer"))
        val inner = Files.createDirectories(outer.resolve("inner"))
        val root = inner.resolve("stackbench-db-1")
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"))
        assertThat(DatabaseFolders.closedOnTheWay(root)).isNull()

        Files.setPosixFilePermissions(inner, PosixFilePermissions.fromString("rwx------"))
        assertThat(DatabaseFolders.closedOnTheWay(root)).isEqualTo(inner)
        Files.setPosixFilePermissions(outer, PosixFilePermissions.fromString("rwxr-x---"))
        assertThat(DatabaseFolders.closedOnTheWay(root)).isEqualTo(outer)
    }
}
