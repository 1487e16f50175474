#!/usr/bin/env bash
# The starved compiler (docs/methodology.md, "A starved compiler"): Tomcat's /noop pinned to CPU 1, primed for 20 s
# at one connection, then oha at 50 connections on CPU 0 for SECONDS; every second the app's stats channel is read
# and one line printed: second, req/s, the compilers' CPU and their compilations' clock as shares of the second.
# Usage, after ./stackbench has built the apps: docs/experiments/compiler-clock.sh [SECONDS (default 120)]
set -euo pipefail
cd "$(dirname "$0")/../.."
SECONDS_LOAD=${1:-120}
source docs/experiments/app.sh
trap stop_app EXIT
start_app
taskset -c 0 "$OHA" --no-tui -c 1 -z 20s $URL > /dev/null
# the compiler threads' CPU, in clock ticks (fields 14-15 of /proc/PID/task/TID/stat; the name holds a space)
ticks() { local s=0; for t in /proc/$APP/task/*; do case "$(cat "$t/comm" 2>/dev/null)" in C1*|C2*) s=$((s + $(sed 's/.*) //' "$t/stat" | awk '{print $12+$13}')));; esac; done; echo $s; }
taskset -c 0 "$OHA" --no-tui -c 50 -z "${SECONDS_LOAD}s" $URL > /dev/null &
LOAD=$!
while kill -0 $LOAD 2>/dev/null; do echo "$(ticks) $(curl -s --max-time 0.5 http://127.0.0.1:$STATS/stats)"; sleep 1; done | python3 -c '
import json, os, sys
hz = os.sysconf("SC_CLK_TCK"); prev = None
print("second\treq/s\tcompiler CPU\tcompilations clock")
for line in sys.stdin:
    ticks, _, body = line.partition(" ")
    try: now = (int(ticks), json.loads(body))
    except ValueError: continue
    if prev:
        s = (now[1]["epochMillis"] - prev[1]["epochMillis"]) / 1000
        t = (now[1]["epochMillis"] - first) / 1000
        print("%.0f\t%.0f\t%.3f\t%.3f" % (t, (now[1]["completed"] - prev[1]["completed"]) / s,
              (now[0] - prev[0]) / hz / s, (now[1]["compilationMillis"] - prev[1]["compilationMillis"]) / 1000 / s), flush=True)
    else: first = now[1]["epochMillis"]
    prev = now'
