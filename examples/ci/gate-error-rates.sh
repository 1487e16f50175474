#!/usr/bin/env bash
# How often does the gate cry wolf, and how often does it catch a known slowdown? Runs the suite the CI recipes gate
# (suites/gate-own-app.yaml) as a CI job on a runner of its own would, each run gated against the run before it
# (`--baseline latest`):
#   - a chain of SAME + 1 runs of unchanged code, each gated against the one before: SAME gates of unchanged code
#     (neighbouring gates share a run, as consecutive CI jobs do);
#   - after each of the first PLANTED of them, a run with OWNAPP_EXTRA_WORK_PERCENT=$PERCENT (10 of every 100
#     requests do their primes twice: examples/own-app/quarkus, ExtraWork), gated against that unchanged run;
#   - then, with CONFIRM=1, for every gate that failed, a confirmation: the current side run once more and gated
#     against the same baseline; a failure counts as confirmed when both gates fail.
# Unchanged and planted runs alternate, so that a drift of the host's speed over the hour falls on both alike. Every
# gate is read twice: by default (an undecided configuration passes) and with --fail-on-undecided. The ledger
# (OUT/gates.tsv) gets one line a gate; started again with the same OUT, the measurement continues where it stopped
# (a run with a summary.md and a gate in the ledger are kept).
#
#   examples/ci/gate-error-rates.sh OUT [SAME] [PLANTED]     (defaults 20 and 10; PERCENT=10; CONFIRM=1;
#                                                            WRAP=COMMAND to run each run through, e.g. a lock:
#                                                            WRAP="flock /var/lock/bench")
# Summarise a ledger: examples/ci/gate-error-rates.sh --tally OUT
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
SUITE="$ROOT/suites/gate-own-app.yaml"
PERCENT="${PERCENT:-10}"

tally() { # prints the counts of a ledger
  awk -F'\t' 'NR > 1 {
      n[$1]++; if ($5 == 1) fail[$1]++; if ($6 == 1) strict[$1]++; if ($5 == 2) cannot[$1]++
      if ($8 == "confirmed") conf[$1]++
    }
    END {
      for (k in n) printf "%s: %d gates; failed %d (exit 1), with --fail-on-undecided %d; cannot compare %d; failed and confirmed by a re-run %d\n",
        k, n[k], fail[k] + 0, strict[k] + 0, cannot[k] + 0, conf[k] + 0
    }' "$1/gates.tsv"
}

if [ "${1:-}" = "--tally" ]; then tally "${2:?OUT}"; exit 0; fi
OUT="$(mkdir -p "${1:?usage: gate-error-rates.sh OUT [SAME] [PLANTED]}" && cd "$1" && pwd)"
SAME="${2:-20}"
PLANTED="${3:-10}"
LEDGER="$OUT/gates.tsv"
[ -f "$LEDGER" ] || printf 'kind\ti\tbaseline\tcurrent\texit\texitStrict\tseconds\tconfirmation\tverdict\n' > "$LEDGER"

locked() { if [ -n "${WRAP:-}" ]; then $WRAP "$@"; else "$@"; fi; }

run() { # run NAME EXTRA_WORK_PERCENT: one run of the suite into OUT/NAME, unless it is there already
  local dir="$OUT/$1"
  [ -f "$dir/summary.md" ] && return 0
  rm -rf "$dir"
  echo "== $(date -u +%H:%M:%S) run $1 (extra work $2 %)"
  OWNAPP_EXTRA_WORK_PERCENT="$2" locked "$ROOT/stackbench" run "$SUITE" --out "$dir" < /dev/null > "$OUT/$1.log" 2>&1 \
    || echo "   run $1 exited $? (its log: $OUT/$1.log)"
}

gated() { grep -q "^$1	$2	" "$LEDGER"; }

gate() { # gate KIND I BASE CURRENT [CONFIRMATION]: gates CURRENT against BASE, by default and strictly, into the ledger
  local start exit strict verdict
  start=$(date +%s)
  set +e
  "$ROOT/stackbench" gate --baseline "$OUT/$3" --current "$OUT/$4" --summary "$OUT/gate-$4.md" --junit "$OUT/gate-$4.xml" < /dev/null \
    > "$OUT/gate-$4.txt" 2>&1
  exit=$?
  "$ROOT/stackbench" gate --baseline "$OUT/$3" --current "$OUT/$4" --fail-on-undecided < /dev/null > "$OUT/gate-$4-strict.txt" 2>&1
  strict=$?
  set -e
  verdict="$(grep -E '^(gate: passed|stackbench: )' "$OUT/gate-$4.txt" | head -1 | tr '\t' ' ')"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" "$exit" "$strict" "$(( $(date +%s) - start ))" \
    "${5:-}" "$verdict" >> "$LEDGER"
  echo "   gate $4 vs $3: exit $exit (strict $strict): $verdict"
}

run "same-00" 0
for i in $(seq -f %02g 1 "$SAME"); do
  previous="same-$(printf '%02d' $((10#$i - 1)))"
  run "same-$i" 0
  gated same "$i" || gate same "$i" "$previous" "same-$i"
  if [ "$((10#$i))" -le "$PLANTED" ]; then
    run "planted-$i" "$PERCENT"
    gated planted "$i" || gate planted "$i" "same-$i" "planted-$i"
  fi
done

[ "${CONFIRM:-1}" = 1 ] || { tally "$OUT"; exit 0; }
# confirmations: every failed gate's current side once more
failed="$(awk -F'\t' 'NR > 1 && ($1 == "same" || $1 == "planted") && $5 == 1 && $8 == "" { print $1, $2, $3 }' "$LEDGER")"
while read -r kind i base; do
  [ -n "$kind" ] || continue
  percent=0; [ "$kind" = planted ] && percent="$PERCENT"
  run "confirm-$kind-$i" "$percent"
  gate "$kind-confirm" "$i" "$base" "confirm-$kind-$i"
  again="$(awk -F'\t' -v k="$kind-confirm" -v i="$i" '$1 == k && $2 == i { e = $5 } END { print e }' "$LEDGER")"
  if [ "$again" = 1 ]; then mark=confirmed; else mark="not confirmed"; fi
  # the original gate's line gets the confirmation's outcome
  awk -F'\t' -v OFS='\t' -v k="$kind" -v i="$i" -v m="$mark" '$1 == k && $2 == i { $8 = m } { print }' "$LEDGER" > "$LEDGER.new"
  mv "$LEDGER.new" "$LEDGER"
done <<< "$failed"

tally "$OUT"
