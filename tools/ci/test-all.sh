#!/usr/bin/env bash
# The README's test command: every suite, on every backend, none skipped. Needs the local Postgres server, Java + Maven
# (for the in-process Neo4j) and Debian's Chromium; `.ci/run` installs and starts them on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/../.."

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
t0=$SECONDS

step "prisma generate"
npm run --silent prisma:generate >/dev/null
step "typecheck"
npm run --silent typecheck
step "lint"
npm run --silent lint
step "production build (the API and MCP suites and the browser journeys serve it)"
npx next build
step "embedding model (Maven Central, checksum-verified; instant when cached)"
npm run --silent model:fetch
step "unit, property, integration and contract suites (PGlite, Postgres, Neo4j)"
mkdir -p test-results
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json
node tools/ci/check-no-skips.mjs test-results/vitest.json
step "assessor evaluation (public development sets and the team's regression sets)"
npm run --silent eval:assessor -- --check
step "browser journeys (Chromium)"
PLAYWRIGHT_JSON_OUTPUT_FILE=test-results/playwright.json npx playwright test --reporter=list,json
node tools/ci/check-no-skips.mjs test-results/playwright.json
step "all green in $((SECONDS - t0)) s"
