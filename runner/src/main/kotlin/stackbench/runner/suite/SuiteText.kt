package stackbench.runner.suite

import stackbench.runner.yaml.SuiteException
import stackbench.runner.yaml.SuiteProblem
import stackbench.runner.yaml.YamlDocument
import java.nio.ByteBuffer
import java.nio.charset.CharacterCodingException
import java.nio.charset.CodingErrorAction
import java.nio.file.Files
import java.nio.file.Path

/** A suite file's bytes as text: UTF-8 only, at most [YamlDocument.MAX_BYTES]; anything else is a suite problem. */
object SuiteText {

    /** The file's text, or a [SuiteException] naming why it is not a suite's text. */
    fun read(path: Path, shown: String): String {
        val size = runCatching { Files.size(path) }.getOrElse { fail(shown, 1, 1, "cannot be read: ${it.message ?: it.javaClass.simpleName}") }
        if (size > YamlDocument.MAX_BYTES) {
            fail(shown, 1, 1, "the file is $size bytes; a suite may be at most ${YamlDocument.MAX_BYTES shr 10} KiB", "suites are a few KB: is this the right file?")
        }
        val bytes = runCatching { Files.readAllBytes(path) }.getOrElse { fail(shown, 1, 1, "cannot be read: ${it.message ?: it.javaClass.simpleName}") }
        return decode(bytes, shown)
    }

    /** [bytes] as UTF-8 text, or a [SuiteException] at the first byte that is not UTF-8. */
    fun decode(bytes: ByteArray, shown: String): String {
        if (bytes.size > YamlDocument.MAX_BYTES) {
            fail(shown, 1, 1, "the file is ${bytes.size} bytes; a suite may be at most ${YamlDocument.MAX_BYTES shr 10} KiB", "suites are a few KB: is this the right file?")
        }
        val utf16 = bytes.size >= 2 && ((bytes[0] == 0xFE.toByte() && bytes[1] == 0xFF.toByte()) || (bytes[0] == 0xFF.toByte() && bytes[1] == 0xFE.toByte()))
        if (utf16) fail(shown, 1, 1, "is UTF-16 text (it starts with a UTF-16 byte order mark); suites are UTF-8", "save the file as UTF-8")
        val decoder = Charsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)
        val input = ByteBuffer.wrap(bytes)
        try {
            return decoder.decode(input).toString()
        } catch (e: CharacterCodingException) {
            // find the first bad byte by decoding prefixes: the valid text before it gives line and column
            var good = 0
            val probe = Charsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
            val buffer = ByteBuffer.wrap(bytes)
            val out = java.nio.CharBuffer.allocate(bytes.size + 1)
            val result = probe.decode(buffer, out, true)
            if (result.isError) good = buffer.position()
            val before = String(bytes, 0, good, Charsets.UTF_8)
            val line = before.count { it == '\n' }
            val lineStart = before.lastIndexOf('\n') + 1
            val sourceLine = before.substring(lineStart)
            fail(shown, line + 1, before.length - lineStart + 1,
                "is not UTF-8 text: byte 0x%02X at offset %d is not valid UTF-8".format(bytes[good].toInt() and 0xFF, good),
                "suites are UTF-8 text; is this a binary file, or saved in another encoding?", sourceLine)
        }
    }

    private fun fail(file: String, line: Int, column: Int, message: String, hint: String? = null, sourceLine: String? = null): Nothing =
        throw SuiteException(listOf(SuiteProblem(file, line, column, "file", message, hint, sourceLine)))
}
