# Sourced by the experiments in this folder, from the project root: the app they measure, Tomcat's /noop pinned to
# CPU 1 as suites/steady-noop.yaml runs it, with its stats channel's threads moved to CPU 0 as the lab keeps them.
# start_app starts it and waits for its first answer (APP: its pid); stop_app stops it (safe to call before start_app).
JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
OHA=${OHA:-.tools/bin/oha}
PORT=18080 STATS=18081 URL=http://127.0.0.1:18080/noop
APP=

start_app() {
  taskset -c 1 "$JAVA" -XX:ActiveProcessorCount=1 -Xms768m -Xmx768m -jar apps/boot4/tomcat/target/app-tomcat-boot4.jar \
    --server.port=$PORT --server.address=127.0.0.1 --stackbench.stats.port=$STATS --stackbench.stats.address=127.0.0.1 \
    --spring.threads.virtual.enabled=false > /dev/null 2>&1 &
  APP=$!
  local _
  for _ in $(seq 1 120); do
    curl -sf $URL > /dev/null && break
    kill -0 "$APP" 2>/dev/null || { echo "the app exited before answering $URL (is port $PORT or $STATS taken?)" >&2; return 1; }
    sleep 0.5
  done
  curl -sf $URL > /dev/null || { echo "the app did not answer $URL within 60 s" >&2; return 1; }
  local t
  for t in /proc/$APP/task/*; do
    case "$(cat "$t/comm")" in HTTP-Dispatcher|stackbench-stat) taskset -pc 0 "$(basename "$t")" > /dev/null;; esac
  done
}

stop_app() { [ -z "$APP" ] || kill "$APP" 2>/dev/null || true; }
