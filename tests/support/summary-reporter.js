// Prints the closing line CI reads, "N passed, N failed[, N skipped]" (jest's own summary is not
// recognised), as the very last line of the run, and writes it to .state/test-summary.txt (.ci/run
// prints it again after make's own output).
//
// Jest always runs its own summary reporter after the custom ones, and it writes the failed tests'
// details and "Test Suites: ..." (to stderr) after our onRunComplete: the line is therefore printed
// when the process exits, after everything jest printed. Writes to pipes, files and terminals are
// synchronous on Linux, so the line gets out before the process ends.
const fs = require("node:fs");
const path = require("node:path");

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const skipped = results.numPendingTests + results.numTodoTests;
    const line = `${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`;
    const dir = path.join(__dirname, "..", "..", ".state");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "test-summary.txt"), `${line}\n`);
    process.once("exit", () => fs.writeSync(process.stdout.fd, `\n${line}\n`));
  }
}
module.exports = SummaryReporter;
