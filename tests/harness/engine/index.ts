/**
 * The engine harness, shared by the engine tests (tests/engine) and the benchmarks (bench/): the
 * real Pulumi CLI driven by the Automation API against an in-process local cloud. Each test file starts its own local cloud and creates its own
 * sandbox (temp directory holding a file backend, a PULUMI_HOME and copies of the programs), so test
 * files are independent and can run in parallel workers.
 *
 * One import for all of them, kept in modules by job:
 * - paths.ts: where things are (the repository, the Pulumi CLI, the example programs);
 * - sandbox.ts: the sandbox, its stacks, and the native provider plugin installed into it;
 * - cloud.ts: the local cloud's control API, a project of its own, a program's stack config;
 * - state.ts: a stack's state, the backend's files and a run's events; running commands;
 * - fleet.ts: a planted fleet of stacks (violations and drifts) for fleet checks;
 * - languages.ts: Python and Go programs: their language hosts, the generated SDKs, a virtualenv.
 */
export * from "./cloud";
export * from "./fleet";
export * from "./languages";
export * from "./paths";
export * from "./sandbox";
export * from "./state";
