#!/usr/bin/env bash
# Builds what start.sh runs, when needed, and does nothing (no Maven start-up) when it is up to date:
#   target/neo4j-test-server.jar  Neo4j + the launcher, shaded (`mvn package`: offline first, online when ~/.m2 lacks
#                                 something; the first run downloads ~160 MB from Maven Central)
#   target/app.jsa                AppCDS archive written by one training run of the server (cuts start-up CPU ~3x);
#                                 optional: when it cannot be made, start.sh runs without it
# Safe to run concurrently (flock). All output goes to stderr.
# Usage: build.sh [--force]
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=jvm-options.sh
source "$here/jvm-options.sh"
target="$here/target"
jar="$target/neo4j-test-server.jar"
jar_stamp="$target/.jar-built"
archive="$target/app.jsa"
archive_stamp="$target/.archive-java"

log() { printf '[neo4j-test-server] %s\n' "$*" >&2; }

needs_jar() {
  [[ -f "$jar_stamp" && -f "$jar" ]] || return 0
  [[ -n "$(find "$here/pom.xml" "$here/src" -newer "$jar_stamp" -print -quit)" ]]
}

# The stamp records which java the archive was made for (or failed for: no retry at every start).
needs_archive() {
  [[ -f "$archive_stamp" && "$(cat "$archive_stamp")" == "$(neo4j_java_identity)" && "$archive_stamp" -nt "$jar" ]] &&
    return 1
  return 0
}

mvn_package() {
  # -q still prints errors on stdout, which start.sh reserves for the URI line; Debian's Maven 3.8 also emits stray
  # colour resets even with -B.
  (cd "$here" && mvn -q -B "$@" package </dev/null 2>&1 | sed 's/\x1b\[[0-9;]*m//g' >&2)
}

build_jar() {
  local t0=$SECONDS
  log "building with Maven…"
  # Not `mvn clean`: it would delete the lock file other callers hold. Removing the jars stops the shade plugin from
  # re-shading its own previous output.
  rm -rf "$target/classes" "$target/neo4j-test-server.jar" "$target/original-neo4j-test-server.jar"
  # The offline attempt's errors are expected on a first run: keep them out of sight unless asked for.
  if ! mvn_package -o 2>"$target/mvn-offline.log"; then
    log "offline build failed (first run, or ~/.m2 lacks an artifact; see target/mvn-offline.log): building online"
    mvn_package
  fi
  touch "$jar_stamp"
  log "jar built in $((SECONDS - t0)) s"
}

build_archive() {
  local t0=$SECONDS training_log="$target/cds-training.log"
  log "training run for the AppCDS archive…"
  rm -f "$archive"
  # A hung dump must not block CI forever: the archive is an optimisation.
  if timeout -k 10 300 "$neo4j_java_bin" "${neo4j_jvm_opts[@]}" -XX:ArchiveClassesAtExit="$archive" \
      -jar "$jar" --train --no-stdin-watch </dev/null >"$training_log" 2>&1 && [[ -s "$archive" ]]; then
    log "AppCDS archive written in $((SECONDS - t0)) s"
  else
    rm -f "$archive"
    log "no AppCDS archive (start-up will be slower); see $training_log"
  fi
  neo4j_java_identity > "$archive_stamp"
}

if [[ "${1:-}" == "--force" ]]; then rm -f "$jar_stamp" "$archive_stamp"; fi
needs_jar || needs_archive || exit 0

mkdir -p "$target"
# Several test workers may start servers at once: one builds, the others wait and then find it up to date.
exec 9> "$target/.build.lock"
flock 9
if needs_jar; then build_jar; fi
if needs_archive; then build_archive; fi
