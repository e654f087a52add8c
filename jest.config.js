// Tests are compiled by tsc (one compiler for code and tests) and run from dist/.
/** @type {import('jest').Config} */
module.exports = {
  rootDir: __dirname,
  testMatch: ["<rootDir>/dist/tests/**/*.test.js"],
  testEnvironment: "node",
  // The code is already compiled; no babel pass (it would also alter the serialized provider text).
  transform: {},
  testTimeout: 30000,
  // Two workers on the 2-core machines: engine tests spend most of their time waiting on the Pulumi
  // CLI, so running two files at once shortens the suite (about 93 s -> 61 s for tests/engine).
  maxWorkers: 2,
  reporters: ["default", "<rootDir>/tests/support/summary-reporter.js"],
};
