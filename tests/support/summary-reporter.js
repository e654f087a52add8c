// Prints the closing line CI reads, "N passed, N failed[, N skipped]" (jest's own summary is not
// recognised), and writes it to .state/test-summary.txt so .ci/run can print it as the very last
// line, after jest's stderr output.
const fs = require("node:fs");
const path = require("node:path");

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const skipped = results.numPendingTests + results.numTodoTests;
    const line = `${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`;
    process.stdout.write(`\n${line}\n`);
    const dir = path.join(__dirname, "..", "..", ".state");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "test-summary.txt"), `${line}\n`);
  }
}
module.exports = SummaryReporter;
