#!/bin/bash
# As run for the recordings in ../oha and ../wrk: RecServer (java RecServer.java 18080) listening on 18080,
# working folder /tmp/rec; it also starts a second RecServer on 18082 and kills it 1 s into a wrk run.
# Records real oha and wrk outputs against RecServer (127.0.0.1:18080) for the parser tests.
set -u
O=/work/main/.tools/bin/oha; U=http://127.0.0.1:18080; F=/tmp/rec/final
LUA=/work/main/runner/src/main/resources/load/stackbench-wrk.lua
BODY='{"id":11,"title":"Benchmark the stacks","description":null,"completed":false}'
rm -rf $F; mkdir -p $F/oha $F/wrk
oha() { name=$1; shift; d=$F/oha/$name; mkdir -p $d; cd $d
  cmd=("$O" --no-tui --output-format json -o oha.json --db-url requests.db "$@")
  printf '%q ' "${cmd[@]}" > command.txt; echo >> command.txt
  "${cmd[@]}" > stdout.txt 2> stderr.txt; echo "oha $name rc=$? db=$(stat -c %s requests.db)"; }
# wrk name config-line wrk-args...
wrk_() { name=$1; cfg=$2; shift 2; d=$F/wrk/$name; mkdir -p $d; cd $d
  sed "s|^-- @@CONFIG@@.*|$cfg|" $LUA > stackbench.lua
  cmd=(wrk "$@")
  { printf "%q " "${cmd[@]}"; echo; echo "config: $(grep "^sb = " stackbench.lua)"; } > command.txt
  "${cmd[@]}" > stdout.txt 2> stderr.txt; echo "wrk $name rc=$?"; rm stackbench.lua; }
cfg() { echo "sb = { output = \"wrk.json\", method = \"$1\", body = $2, headers = { $3 }, per_second = $4, expected = $5 }"; }
GET="$(cfg GET nil '' true 200)"

oha closed-timed -m GET -t 2s --worker-threads 1 -c 2 -z 2s "$U/delay?ms=5"
oha closed-counted -m GET -t 2s --worker-threads 1 -c 2 -n 300 "$U/delay?ms=2"
oha open -m GET -t 2s --worker-threads 1 -q 200 --latency-correction -c 10 -z 2s "$U/jitter?every=40&slow=150&fast=2"
oha open-overload -m GET -t 5s --worker-threads 1 -q 100 --latency-correction -c 2 -z 2s "$U/delay?ms=50"
oha deadline -m GET -t 3s --worker-threads 1 -c 5 -z 2s "$U/delay?ms=700"
# recorded later against a RecServer on 18091 (see command.txt): every request outlasts the window
# oha no-answer -m GET -t 5s --worker-threads 1 -c 5 -z 1s "http://127.0.0.1:18091/delay?ms=3000"
oha timeout -m GET -t 1s --worker-threads 1 -c 4 -z 2s "$U/jitter?every=4&slow=1500&fast=20"
oha status -m GET -t 2s --worker-threads 1 -c 2 -z 2s "$U/flaky?ms=5"
oha refused -m GET -t 1s --worker-threads 1 -c 2 -z 1s "http://127.0.0.1:18099/noop"
oha post-auth -m POST -t 2s --worker-threads 1 -c 2 -z 2s -d "$BODY" -T application/json -a user:password "$U/todo?ms=3"
oha jitter -m GET -t 2s --worker-threads 1 -c 2 -z 3s "$U/jitter?every=10&slow=200&fast=5"

wrk_ closed "$GET" -t 1 -c 2 -d 2s --latency --timeout 2s -s stackbench.lua "$U/delay?ms=5"
wrk_ no-hook "$(cfg GET nil '' false 200)" -t 1 -c 2 -d 2s --latency --timeout 2s -s stackbench.lua "$U/delay?ms=5"
wrk_ status "$GET" -t 2 -c 4 -d 2s --latency --timeout 2s -s stackbench.lua "$U/flaky?ms=5"
wrk_ timeout "$GET" -t 2 -c 4 -d 3s --latency --timeout 1s -s stackbench.lua "$U/jitter?every=4&slow=1500&fast=20"
wrk_ jitter "$GET" -t 1 -c 2 -d 3s --latency --timeout 2s -s stackbench.lua "$U/jitter?every=10&slow=200&fast=5"
wrk_ post-auth "$(cfg POST "\"$(echo "$BODY" | sed 's/"/\\\\"/g')\"" '["Content-Type"] = "application/json", ["Authorization"] = "Basic dXNlcjpwYXNzd29yZA=="' true 201)" -t 1 -c 2 -d 2s --latency --timeout 2s -s stackbench.lua "$U/todo?ms=3"
# connection errors: a server that dies one second into the run
cd /tmp/rec && (/usr/lib/jvm/temurin-25-jdk-amd64/bin/java RecServer.java 18082 > dying.log 2>&1 & echo $! > dying.pid)
for i in $(seq 1 50); do curl -s -o /dev/null localhost:18082/noop && break; sleep 0.2; done
( sleep 1; kill $(cat /tmp/rec/dying.pid) ) &
wrk_ connect-errors "$GET" -t 1 -c 2 -d 2s --latency --timeout 2s -s stackbench.lua "http://127.0.0.1:18082/delay?ms=5"
wait
