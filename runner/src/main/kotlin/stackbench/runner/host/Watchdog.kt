package stackbench.runner.host

import java.nio.file.Path

/**
 * One small shell process per run that outlives the runner by design, to clean up after it when it is
 * killed (SIGKILL, the OOM killer) and cannot clean up itself: it ends the run's processes still alive and
 * removes the run's cgroups, within a second or two.
 *
 * It learns of the runner's end without polling: its standard input is a pipe whose only write end the
 * runner holds (Java's children inherit no other descriptor), and the kernel closes it when the runner
 * dies, however it dies; `read` then returns. It ignores the terminal's signals (Ctrl-C reaches the whole
 * process group) so that it is still there when the runner is gone. Then, until nothing is left (at most
 * about 10 s): SIGKILL to every process whose command line holds the run's marker (`-Dstackbench.run=DIR`: the
 * downstream JVM) or an argument starting with the marker prefix (`-Xlog:gc:file=DIR/`: each app JVM, whose GC
 * log is in the run's folder) and to every process in the runner's groups (`sb<pid>-*` under each of the
 * lab's cgroup roots: the app, the load generators), then rmdir of those groups; with a folder ([DIRS], the database
 * clusters'), SIGKILL to every process with an argument under it (the database server) and then the folder removed. After
 * a run that ended normally it finds nothing and exits at once.
 *
 * With [ParentDeath], the kernel has already killed each direct child; the watchdog removes the groups
 * (which no signal removes) and whatever a missing setpriv left alive.
 */
class Watchdog private constructor(private val process: Process) {
    val pid: Long get() = process.pid()

    companion object {
        /** The one watchdog of this runner; kept here so that its pipe stays open as long as the runner lives. */
        @Volatile private var current: Watchdog? = null

        /**
         * The shell script: waits for the runner's end, then cleans. The markers and group prefix come from the
         * environment ([MARK], [MARK_PREFIX], [PREFIX]) and the group roots as arguments, so that its own command line holds
         * neither and it never matches itself.
         */
        val SCRIPT = """
            trap '' INT QUIT HUP TERM
            read -r _ || true
            n=0
            while [ ${'$'}n -lt 100 ]; do
              left=0
              for f in /proc/[0-9]*/cmdline; do
                p=${'$'}{f#/proc/}; p=${'$'}{p%/cmdline}
                if tr '\0' '\n' < "${'$'}f" 2>/dev/null | awk -v a="${'$'}$MARK" -v b="${'$'}$MARK_PREFIX" -v c="${'$'}$DIRS" \
                    '(a != "" && ${'$'}0 == a) || (b != "" && index(${'$'}0, b) == 1) || (c != "" && index(${'$'}0, c "/") == 1) { found = 1 } END { exit !found }'; then
                  kill -9 "${'$'}p" 2>/dev/null; left=1
                fi
              done
              for root in "${'$'}@"; do
                for g in "${'$'}root"/"${'$'}$PREFIX"-*; do
                  [ -d "${'$'}g" ] || continue
                  for p in ${'$'}(cat "${'$'}g/cgroup.procs" 2>/dev/null); do kill -9 "${'$'}p" 2>/dev/null; done
                  rmdir "${'$'}g" 2>/dev/null || left=1
                done
              done
              [ ${'$'}left = 0 ] && break
              n=${'$'}((n + 1))
              sleep 0.1
            done
            d=${'$'}$DIRS
            if [ -n "${'$'}d" ]; then rm -rf -- "${'$'}d"; fi
            t=${'$'}$NET_TAG
            if [ -n "${'$'}t" ]; then
              for ns in ${'$'}(ip netns list 2>/dev/null | awk '{print ${'$'}1}'); do
                case "${'$'}ns" in "${'$'}t"-*) ip netns delete "${'$'}ns" 2>/dev/null ;; esac
              done
              for l in ${'$'}(ip -o link 2>/dev/null | awk -F': ' '{print ${'$'}2}' | cut -d@ -f1); do
                case "${'$'}l" in "${'$'}t"br|"${'$'}t"h[0-9]*) ip link delete "${'$'}l" 2>/dev/null ;; esac
              done
            fi
            exit 0
        """.trimIndent()

        const val MARK = "STACKBENCH_MARK"
        const val MARK_PREFIX = "STACKBENCH_MARK_PREFIX"
        const val PREFIX = "STACKBENCH_GROUPS"
        /** The run's network tag ([NetworkPlan.tag]): its namespaces (`<tag>-*`) and links go too. */
        const val NET_TAG = "STACKBENCH_NET_TAG"
        /** A folder of the runner's (its database clusters): what runs from it (an argument under it) is killed, then it is removed. */
        const val DIRS = "STACKBENCH_DIRS"

        /** The command that starts the watchdog for the groups under [groupRoots] (their name prefix from [PREFIX] in its environment). */
        fun command(groupRoots: List<Path>): List<String> =
            listOf("/bin/sh", "-c", SCRIPT, "stackbench-watchdog") + groupRoots.map { it.toString() }

        /**
         * Starts the runner's watchdog for processes marked [marker] (a whole argument of their command line) or
         * with an argument that starts with [markerPrefix], and groups [groupPrefix]`-*` under [groupRoots];
         * replaces an earlier one.
         */
        fun start(marker: String, markerPrefix: String, groupPrefix: String, groupRoots: List<Path>, netTag: String? = null, dir: Path? = null): Watchdog {
            require(groupPrefix.matches(Regex("[A-Za-z0-9._-]+"))) { "group prefix '$groupPrefix'" }
            val builder = ProcessBuilder(command(groupRoots))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD)
            builder.environment()[MARK] = marker
            builder.environment()[MARK_PREFIX] = markerPrefix
            builder.environment()[PREFIX] = groupPrefix
            netTag?.let { builder.environment()[NET_TAG] = it }
            dir?.let { builder.environment()[DIRS] = it.toString() }
            return Watchdog(builder.start()).also { current = it }
        }
    }
}
