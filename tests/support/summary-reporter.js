// Prints the one closing line CI reads: "N passed, N failed" (jest's own summary is not recognised).
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    process.stdout.write(`\n${results.numPassedTests} passed, ${failed} failed\n`);
  }
}
module.exports = SummaryReporter;
