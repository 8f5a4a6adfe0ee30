// Fails the run when any test was skipped, left pending or marked to be fixed later: a skipped test in CI is a silent
// hole. Reads Vitest's JSON report (`--reporter=json`) or Playwright's (`--reporter=json`), whichever it is given.
import { readFileSync } from "node:fs";

const path = process.argv[2];
const report = JSON.parse(readFileSync(path, "utf8"));

/** Vitest: `testResults[].assertionResults[]`, each `passed`, `failed`, `skipped`, `pending`, `todo` or `disabled`. */
function vitest(report) {
  const skipped = [];
  for (const file of report.testResults ?? []) {
    for (const test of file.assertionResults ?? []) {
      if (test.status !== "passed" && test.status !== "failed") skipped.push(`${file.name}: ${test.fullName} (${test.status})`);
    }
  }
  return { total: report.numTotalTests ?? 0, skipped, summary: `${report.numPassedTests} passed, ${report.numFailedTests} failed` };
}

/**
 * Playwright: nested `suites[].specs[].tests[]`; a test's `status` is `expected`, `unexpected`, `flaky` or `skipped`
 * (`test.skip`, `test.fixme`, a skipped describe); `expectedStatus: "skipped"` or `"failed"` (`test.fail`) is a test
 * that does not check what it says either.
 */
function playwright(report) {
  const skipped = [];
  let total = 0;
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        total += 1;
        const name = `${spec.file ?? suite.file}: ${[...titles, spec.title].filter(Boolean).join(" › ")} [${test.projectName ?? ""}]`;
        if (test.status === "skipped" || test.expectedStatus !== "passed") skipped.push(`${name} (${test.status}, expected ${test.expectedStatus})`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, [...titles, child.title]);
  };
  for (const suite of report.suites ?? []) walk(suite, []);
  const stats = report.stats ?? {};
  return { total, skipped, summary: `${stats.expected ?? 0} passed, ${stats.unexpected ?? 0} failed, ${stats.flaky ?? 0} flaky` };
}

const kind = Array.isArray(report.testResults) ? "Vitest" : Array.isArray(report.suites) ? "Playwright" : null;
if (kind === null) {
  console.error(`check-no-skips: ${path} is neither a Vitest nor a Playwright JSON report`);
  process.exit(1);
}
const { total, skipped, summary } = kind === "Vitest" ? vitest(report) : playwright(report);
if (total === 0) {
  console.error(`check-no-skips: no ${kind} tests ran`);
  process.exit(1);
}
if (skipped.length > 0) {
  console.error(`check-no-skips: ${skipped.length} ${kind} test(s) did not run as tests:\n  ${skipped.join("\n  ")}`);
  process.exit(1);
}
console.log(`check-no-skips: all ${total} ${kind} tests ran (${summary})`);
