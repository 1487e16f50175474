#!/usr/bin/env bash
# Driver or process? (docs/methodology.md, "Clean clones, 2026-11-26"): the /noop check read oha's process 9 % above
# wrk's, each flat. Here ONE app process (Tomcat's /noop pinned to CPU 1, as suites/steady-noop.yaml) serves windows
# that alternate the drivers on CPU 0: oha, wrk with the lab's response() hook (per-second counts, as WrkDriver runs
# it), wrk without a script. A per-process level would read the same under every driver; a driver's cost reads
# the same gap in every round. Each window prints req/s (the app's own count), the app's CPU per answer split into
# user and kernel time, and the NET_RX softirqs per answer on the app's CPU.
# Usage, after ./stackbench has built the apps: docs/experiments/driver-alternation.sh [WINDOW s (60)] [ROUNDS (3)] [WARM-UP s (150)]
set -euo pipefail
cd "$(dirname "$0")/../.."
WINDOW=${1:-60} ROUNDS=${2:-3} WARM=${3:-150}
source docs/experiments/app.sh
WORK=$(mktemp -d)
trap 'stop_app; rm -rf "$WORK"' EXIT
start_app
# the lab's wrk script with per-second counts on (the one change WrkDriver makes to its @@CONFIG@@ line)
sed "s|^-- @@CONFIG@@|sb = { output = \"$WORK/wrk.json\", method = \"GET\", body = nil, headers = {}, per_second = true, expected = 200 }|" \
  runner/src/main/resources/load/stackbench-wrk.lua > "$WORK/stackbench.lua"
drive() { # $1: oha | wrk-lua | wrk; $2: seconds
  case "$1" in
    oha) taskset -c 0 "$OHA" --no-tui --worker-threads 1 -c 50 -z "$2s" $URL ;;
    wrk-lua) taskset -c 0 wrk -t 1 -c 50 -d "$2s" -s "$WORK/stackbench.lua" $URL ;;
    wrk) taskset -c 0 wrk -t 1 -c 50 -d "$2s" $URL ;;
  esac > /dev/null 2>&1
}
# the app's user and kernel CPU (ticks, /proc/PID/stat fields 14-15; the name may hold a space), its answers, NET_RX on CPU 1
probe() {
  local cpu; cpu=$(sed 's/.*) //' /proc/$APP/stat | awk '{print $12, $13}')
  echo "$cpu $(curl -s --max-time 2 http://127.0.0.1:$STATS/stats | python3 -c 'import json,sys; print(json.load(sys.stdin)["completed"])') $(awk '/NET_RX/ {print $3}' /proc/softirqs) $(date +%s.%N)"
}
echo "warming up with oha for ${WARM}s" >&2
drive oha "$WARM"
HZ=$(getconf CLK_TCK)
printf 'round\tdriver\treq/s\tCPU ms/answer\tuser\tkernel\tNET_RX/answer\n'
for r in $(seq 1 "$ROUNDS"); do
  for d in oha wrk-lua wrk; do
    drive "$d" 5                      # the driver's connections open outside the window
    before=$(probe); drive "$d" "$WINDOW"; after=$(probe)
    python3 - "$r" "$d" "$HZ" $before $after <<'EOF'
import sys
r, d, hz = sys.argv[1], sys.argv[2], int(sys.argv[3])
u0, s0, n0, x0, t0, u1, s1, n1, x1, t1 = map(float, sys.argv[4:])
n = n1 - n0
ms = lambda ticks: ticks / hz * 1000 / n
print("%s\t%s\t%.0f\t%.4f\t%.4f\t%.4f\t%.3f" % (r, d, n / (t1 - t0), ms(u1 - u0 + s1 - s0), ms(u1 - u0), ms(s1 - s0), (x1 - x0) / n), flush=True)
EOF
  done
done
