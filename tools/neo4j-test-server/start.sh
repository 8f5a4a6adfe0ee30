#!/usr/bin/env bash
# Starts Neo4j Community (embedded, Bolt on 127.0.0.1, auth disabled, data in a temp folder) in the foreground.
# stdout: exactly one line, NEO4J_URI=bolt://127.0.0.1:<port>, once Bolt is ready; every log line goes to stderr.
# Stops (and deletes its data) on SIGTERM/SIGINT and when stdin reaches EOF — unless stdin is /dev/null (a background
# job in a script) or --no-stdin-watch is given.
# Usage: start.sh [--port N] [--no-stdin-watch]
# Env:   JAVA_HOME (Java 17+), NEO4J_TEST_SERVER_JAVA_OPTS (extra JVM flags, e.g. -Xmx2g)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bash "$here/build.sh"

args=("$@")
if [[ "$(readlink -f /proc/$$/fd/0 2>/dev/null || true)" == /dev/null ]]; then
  args+=(--no-stdin-watch)
fi

# exec: the JVM takes this process's pid, so the parent's SIGTERM and stdin reach it directly.
# The --add-opens/--add-exports set is the one Neo4j 5's own launcher passes (off-heap buffers, native I/O).
# shellcheck disable=SC2086
exec "${JAVA_HOME:+$JAVA_HOME/bin/}java" \
  -XX:+UseParallelGC -Xms256m -Xmx1g -XX:-OmitStackTraceInFastThrow \
  --add-opens=java.base/java.nio=ALL-UNNAMED \
  --add-opens=java.base/java.io=ALL-UNNAMED \
  --add-opens=java.base/sun.nio.ch=ALL-UNNAMED \
  --add-opens=java.base/java.lang=ALL-UNNAMED \
  --add-opens=java.base/java.util=ALL-UNNAMED \
  --add-exports=java.base/sun.nio.ch=ALL-UNNAMED \
  --enable-native-access=ALL-UNNAMED \
  -Dfile.encoding=UTF-8 \
  ${NEO4J_TEST_SERVER_JAVA_OPTS:-} \
  -cp "$here/target/classes:$(cat "$here/target/classpath.txt")" \
  dev.credence.neo4jtest.Neo4jTestServer "${args[@]}"
