// Tests are compiled by tsc (one compiler for code and tests) and run from dist/.
/** @type {import('jest').Config} */
module.exports = {
  rootDir: __dirname,
  testMatch: ["<rootDir>/dist/tests/**/*.test.js"],
  testEnvironment: "node",
  // What tools write beside the sources is no module of the tests: `make plugin` leaves a copy of the
  // package (package.json named pulumi-krcloud) under .state/plugin/, which jest's haste map would
  // otherwise report as a naming collision with the repository's own package.json.
  modulePathIgnorePatterns: ["<rootDir>/\\.state/", "<rootDir>/sdk/"],
  // The code is already compiled; no babel pass (it would also alter the serialized provider text).
  transform: {},
  testTimeout: 30000,
  // Two workers on the 2-core machines: engine tests spend most of their time waiting on the Pulumi
  // CLI, so running two files at once shortens the suite (about 93 s -> 61 s for tests/engine).
  maxWorkers: 2,
  reporters: ["default", "<rootDir>/tests/support/summary-reporter.js"],
};
