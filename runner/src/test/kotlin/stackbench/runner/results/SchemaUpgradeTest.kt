package stackbench.runner.results

import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import stackbench.runner.stats.Relation
import java.nio.file.Files
import java.nio.file.Path

class SchemaUpgradeTest {
    /** A schema-1 record, as runs before 2026-12-06 wrote it: one cell's figures side by side, one decision's copied out. */
    private val schema1 = """
        {"schema": "stackbench.results/1",
         "run": {"id": "r", "suite": "s", "suiteFile": "s.yaml", "suiteText": "", "startedAt": "2026-12-01T00:00:00Z"},
         "environment": {"hostname": "h", "os": "o", "kernel": "k", "cpuModel": "c", "logicalCpus": 2, "physicalCpus": 1,
                         "memoryBytes": 1, "runnerJdk": "25", "appJdk": "25", "isolation": "cgroup-v1"},
         "cells": [{"key": "a/noop/c10/r1", "configKey": "a/noop/c10", "index": 1, "folder": "cells/001", "repetition": 1, "status": "OK",
           "app": {"name": "a", "stack": "tomcat", "boot": "4.1", "label": "Tomcat", "virtualThreads": false},
           "profile": {"cpuLimit": "cpuset", "cpus": 1.0, "cpuset": [1], "activeProcessorCount": 1, "isolation": "cgroup-v1",
                       "driverCpus": [0], "downstreamCpus": [0], "sharesCpusWithDriver": false},
           "endpoint": {"kind": "noop", "params": {}, "method": "GET", "path": "/noop", "label": "noop"},
           "load": {"driver": "wrk", "model": "closed", "connections": 10, "warmupMs": 1000, "timeoutMs": 5000, "threads": 1, "label": "c10"},
           "info": {"server": "tomcat"}, "startup": {"toHealthyMs": 1500.0},
           "idle": {"requests": 5, "medianMs": 0.4, "minMs": 0.3},
           "warmup": {"driver": "wrk", "model": "closed", "latencyCorrected": false, "responses": 0, "successes": 0, "wallSeconds": 0.0, "throughput": 0.0,
                      "latency": {}},
           "measured": {"driver": "wrk", "model": "closed", "latencyCorrected": false, "responses": 12000, "successes": 12000,
                        "wallSeconds": 10.0, "throughput": 1200.0, "latency": {"p50": 8.0, "p99": 20.0}},
           "resources": {"cpuShare": 0.9, "serverPerSecond": [1190.0, 1210.0]},
           "samples": [{"tMs": 0, "epochMs": 5}],
           "ceiling": {"law": "cpu", "requestsPerSecond": 1500.0, "explanation": "1 CPU", "efficiency": 0.8},
           "warmupSteps": [900.0, 1100.0], "quietAfterWarmupMs": 12,
           "warmupRecord": {"seconds": 20.0, "endedBy": "steady", "steadyAfterSeconds": 9.0, "slices": []},
           "windowShape": {"shape": "flat", "steadyFromSecond": 2, "reason": "no trend"}, "jvm": {"gcMs": 3.0}, "statsThreads": "out of the app's limits"}],
         "decisions": [{"name": "a vs b", "a": "a/noop/c10", "b": "b/noop/c10", "threshold": 0.05, "ratio": 1.2, "low": 1.1, "high": 1.3,
           "pValue": 0.03, "nA": 4, "nB": 4, "relation": "higher", "decided": true, "why": "above the band", "leftOut": ["x: failed"],
           "method": "welch-log-process-means", "processesA": 2, "processesB": 2, "confidence": 0.95, "look": 1, "maxLooks": 1, "rules": "2026-12-05.1"}]}
    """.trimIndent()

    private fun read(text: String, dir: Path): RunResult {
        val file = dir.resolve("results.json")
        Files.writeString(file, text)
        return ResultsStore.read(file)
    }

    @Test
    fun `a schema-1 cell reads with each figure in its stage's group, and the empty warm-up load result dropped`(@TempDir dir: Path) {
        val cell = read(schema1, dir).cells.single()
        assertThat(cell.system.info!!["server"].asString()).isEqualTo("tomcat")
        assertThat(cell.system.statsThreads).isEqualTo("out of the app's limits")
        assertThat(cell.start.startup!!.toHealthyMs).isEqualTo(1500.0)
        assertThat(cell.warmup.record!!.steadyAfterSeconds).isEqualTo(9.0)
        assertThat(cell.warmup.steps).containsExactly(900.0, 1100.0)
        assertThat(cell.warmup.quietAfterMs).isEqualTo(12L)
        assertThat(cell.window.measured!!.throughput).isEqualTo(1200.0)
        assertThat(cell.window.shape!!.shape).isEqualTo("flat")
        assertThat(cell.window.jvm!!.gcMs).isEqualTo(3L)
        assertThat(cell.resources.summary!!.serverPerSecond).containsExactly(1190.0, 1210.0)
        assertThat(cell.resources.samples).hasSize(1)
        assertThat(cell.ceiling.idle!!.minMs).isEqualTo(0.3)
        assertThat(cell.ceiling.bound!!.efficiency).isEqualTo(0.8)
    }

    @Test
    fun `a schema-1 decision reads as the engine's record, its relation words as the engine's names`(@TempDir dir: Path) {
        val d = read(schema1, dir).decisions.single()
        assertThat(d.decision.relation).isEqualTo(Relation.HIGHER)
        assertThat(d.decision.ratio).isEqualTo(1.2)
        assertThat(d.decision.threshold).isEqualTo(0.05)
        assertThat(d.decision.processesA).isEqualTo(2)
        assertThat(d.decided).isTrue()
        assertThat(d.leftOut).containsExactly("x: failed")
        assertThat(d.rules).isEqualTo("2026-12-05.1")
    }

    @Test
    fun `a record written now is schema 2 and reads back equal, with no schema-1 field left`(@TempDir dir: Path) {
        val upgraded = read(schema1, dir)
        val again = dir.resolve("again")
        ResultsStore(again).write(upgraded)
        val tree = Json.mapper.readTree(again.resolve(ResultsStore.JSON_FILE).toFile())
        assertThat(tree["schema"].asString()).isEqualTo(SCHEMA)
        val cell = tree["cells"][0]
        for ((old, group, _) in SchemaUpgrade.CELL_MOVES) if (old != group) assertThat(cell.has(old)).`as`(old).isFalse()
        for (f in SchemaUpgrade.DECISION_FIELDS) assertThat(tree["decisions"][0].has(f)).`as`(f).isFalse()
        assertThat(ResultsStore.read(again)).isEqualTo(upgraded)
    }

    @Test
    fun `an unknown relation word in a schema-1 decision is refused, naming it`(@TempDir dir: Path) {
        assertThatThrownBy { read(schema1.replace("\"relation\": \"higher\"", "\"relation\": \"above\""), dir) }
            .hasMessageContaining("'above'")
    }

    @Test
    fun `a third schema is refused, naming both the reader reads`(@TempDir dir: Path) {
        assertThatThrownBy { read(schema1.replace("stackbench.results/1", "stackbench.results/9"), dir) }
            .hasMessageContaining("stackbench.results/9").hasMessageContaining(SCHEMA).hasMessageContaining(SchemaUpgrade.SCHEMA_1)
    }
}
