#!/usr/bin/env bash
# Builds the module when needed: target/classes plus target/classpath.txt (the jars stay in ~/.m2).
# Offline first (`mvn -o`), online when the local repository lacks something (first run: ~125 MB from Maven Central).
# Safe to run concurrently (flock) and cheap when up to date (no Maven start-up). All output goes to stderr.
# Usage: build.sh [--force]
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
target="$here/target"
stamp="$target/.built"
classpath_file="$target/classpath.txt"

log() { printf '[neo4j-test-server] %s\n' "$*" >&2; }

needs_build() {
  [[ -f "$stamp" && -f "$classpath_file" ]] || return 0
  [[ -z "$(find "$here/pom.xml" "$here/src" -newer "$stamp" -print -quit)" ]] || return 0
  # A jar went missing from ~/.m2 (a pruned or fresh CI cache).
  local jar jars
  IFS=':' read -r -a jars < "$classpath_file"
  for jar in "${jars[@]}"; do [[ -f "$jar" ]] || return 0; done
  return 1
}

mvn_build() {
  # -q still prints errors on stdout, which start.sh reserves for the URI line; Debian's Maven 3.8 also emits stray
  # colour resets even with -B.
  (cd "$here" && mvn -q -B "$@" process-classes </dev/null 2>&1 | sed 's/\x1b\[[0-9;]*m//g' >&2)
}

if [[ "${1:-}" == "--force" ]]; then rm -f "$stamp"; fi
needs_build || exit 0

mkdir -p "$target"
# Several test workers may start servers at once: one builds, the others wait and then find it up to date.
exec 9> "$target/.build.lock"
flock 9
needs_build || exit 0

t0=$SECONDS
log "building with Maven…"
if ! mvn_build -o; then
  log "offline build failed (first run, or ~/.m2 lacks a jar); building online from Maven Central"
  mvn_build
fi
touch "$stamp"
log "built in $((SECONDS - t0)) s"
