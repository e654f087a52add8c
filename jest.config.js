// Tests are compiled by tsc (one compiler for code and tests) and run from dist/.
/** @type {import('jest').Config} */
module.exports = {
  rootDir: __dirname,
  testMatch: ["<rootDir>/dist/tests/**/*.test.js"],
  testEnvironment: "node",
  testTimeout: 30000,
  reporters: ["default", "<rootDir>/tests/support/summary-reporter.js"],
};
