// Fails the run when Vitest skipped or left pending any test: a skipped suite in CI is a silent hole.
import { readFileSync } from "node:fs";

const report = JSON.parse(readFileSync(process.argv[2], "utf8"));
const skipped = [];
for (const file of report.testResults ?? []) {
  for (const test of file.assertionResults ?? []) {
    if (test.status !== "passed" && test.status !== "failed") skipped.push(`${file.name}: ${test.fullName} (${test.status})`);
  }
}
const total = report.numTotalTests ?? 0;
if (total === 0) {
  console.error("check-no-skips: no tests ran");
  process.exit(1);
}
if (skipped.length > 0) {
  console.error(`check-no-skips: ${skipped.length} test(s) did not run:\n  ${skipped.join("\n  ")}`);
  process.exit(1);
}
console.log(`check-no-skips: all ${total} tests ran (${report.numPassedTests} passed, ${report.numFailedTests} failed)`);
