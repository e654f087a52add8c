// Tests are compiled by tsc (one compiler for code and tests) and run from dist/.
/** @type {import('jest').Config} */
module.exports = {
  rootDir: __dirname,
  testMatch: ["<rootDir>/dist/tests/**/*.test.js"],
  testEnvironment: "node",
  // The code is already compiled; no babel pass (it would also alter the serialized provider text).
  transform: {},
  testTimeout: 30000,
  reporters: ["default", "<rootDir>/tests/support/summary-reporter.js"],
};
