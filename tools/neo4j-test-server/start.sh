#!/usr/bin/env bash
# Starts Neo4j Community (embedded, Bolt on 127.0.0.1, auth disabled, temp data) in the foreground.
# stdout: exactly one line, NEO4J_URI=bolt://127.0.0.1:<port>, once Bolt is ready; logs go to stderr.
# Exits on SIGTERM/SIGINT and when stdin closes (unless stdin is /dev/null or --no-stdin-watch is given).
# Usage: start.sh [--port N] [--no-stdin-watch]        Env: JAVA_HOME, NEO4J_TEST_SERVER_JAVA_OPTS, MAVEN_OPTS
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
target="$here/target"
stamp="$target/.built"
classpath_file="$target/classpath.txt"

log() { printf '[neo4j-test-server] %s\n' "$*" >&2; }

needs_build() {
  [[ -f "$stamp" && -f "$classpath_file" ]] || return 0
  # Sources or the pom changed since the last build.
  [[ -z "$(find "$here/pom.xml" "$here/src" -newer "$stamp" -print -quit)" ]] || return 0
  # The local repository lost a jar (e.g. a fresh CI cache).
  local jar
  IFS=':' read -r -a jars < "$classpath_file"
  for jar in "${jars[@]}"; do [[ -f "$jar" ]] || return 0; done
  return 1
}

build() {
  mkdir -p "$target"
  # One build at a time when several test workers start servers together; the loser rechecks and skips.
  exec 9> "$target/.build.lock"
  flock 9
  if needs_build; then
    local t0=$SECONDS
    log "building (mvn)…"
    # mvn -q still prints errors on stdout, which is reserved for the URI line.
    if ! (cd "$here" && mvn -q -B -o -Dstyle.color=never process-classes </dev/null >&2); then
      log "offline build failed (first run?), building online: Neo4j's jars (~125 MB) come from Maven Central"
      (cd "$here" && mvn -q -B -Dstyle.color=never process-classes </dev/null >&2)
    fi
    touch "$stamp"
    log "built in $((SECONDS - t0)) s"
  fi
  exec 9>&-
}

if needs_build; then build; fi

java_bin="${JAVA_HOME:+$JAVA_HOME/bin/}java"
args=("$@")
# A background job in a non-interactive shell gets /dev/null as stdin: EOF at once, which must not mean "stop".
if [[ "$(readlink -f /proc/$$/fd/0 2>/dev/null || true)" == /dev/null ]]; then
  args+=(--no-stdin-watch)
fi

# The --add-opens/--add-exports list is the one Neo4j 5's own launcher passes (off-heap buffers, native I/O).
# shellcheck disable=SC2086
exec "$java_bin" \
  -XX:+UseParallelGC -Xms256m -Xmx1g \
  -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints -XX:-OmitStackTraceInFastThrow \
  --add-opens=java.base/java.nio=ALL-UNNAMED \
  --add-opens=java.base/java.io=ALL-UNNAMED \
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED \
  --add-opens=java.base/java.lang=ALL-UNNAMED \
  --add-opens=java.base/java.util=ALL-UNNAMED \
  --add-exports=java.base/sun.nio.ch=ALL-UNNAMED \
  --enable-native-access=ALL-UNNAMED \
  -Dfile.encoding=UTF-8 \
  ${NEO4J_TEST_SERVER_JAVA_OPTS:-} \
  -cp "$target/classes:$(cat "$classpath_file")" \
  dev.credence.neo4jtest.Neo4jTestServer "${args[@]}"
