#!/usr/bin/env bash
# Starts Neo4j Community (embedded, Bolt on 127.0.0.1, auth disabled, data in a temp folder) in the foreground.
# stdout: exactly one line, NEO4J_URI=bolt://127.0.0.1:<port>, once Bolt is ready; every log line goes to stderr.
# Stops (and deletes its data, unless --data DIR named where to keep it) on SIGTERM/SIGINT, when stdin reaches EOF (not watched when stdin is /dev/null, as for
# a background job in a script, or with --no-stdin-watch) and when the process that launched it exits (not with
# --no-parent-watch). To keep a server after its launcher returns: start.sh --no-stdin-watch --no-parent-watch &
# Usage: start.sh [--port N] [--data DIR] [--no-stdin-watch] [--no-parent-watch]
# Env:   JAVA_HOME (Java 17+), NEO4J_TEST_SERVER_JAVA_OPTS (extra JVM flags, e.g. -Xmx2g)
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
bash "$here/build.sh"
# shellcheck source=jvm-options.sh
source "$here/jvm-options.sh"

args=("$@")
if [[ "$(readlink -f /proc/$$/fd/0 2>/dev/null || true)" == /dev/null ]]; then
  args+=(--no-stdin-watch)
fi
archive=()
if [[ -s "$here/target/app.jsa" ]]; then archive=(-XX:SharedArchiveFile="$here/target/app.jsa"); fi

# exec: the JVM takes this process's pid, so the parent's SIGTERM and stdin reach it directly.
# shellcheck disable=SC2086
exec "$neo4j_java_bin" "${neo4j_jvm_opts[@]}" "${archive[@]}" ${NEO4J_TEST_SERVER_JAVA_OPTS:-} \
  -jar "$here/target/neo4j-test-server.jar" "${args[@]}"
