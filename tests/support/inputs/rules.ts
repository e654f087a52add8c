/**
 * The rules of a resource's inputs, read from its zod schema (zod 4's `schema._zod.def`: types,
 * lengths, patterns, ranges, enums, strict objects, required properties, record keys, unions), and
 * fast-check arbitraries derived from them: inputs that break one rule, each with the property path
 * `check` must name and the rule's text its reason must carry, and inputs that keep every rule.
 *
 * Rules the schema states only as functions (refinements) are of two kinds. A refinement of one
 * value (`must not contain a NUL character`) is read as an oracle: candidates are kept or dropped by
 * running it. A refinement of several properties (every shard with the same number of replicas) is
 * the resource's cross-field rule: `CrossFieldRules` (cross-field-rules.ts) states it by hand, and
 * `refinedContainers` lists where the schema has one, so that a new refinement without a hand-written
 * counterpart is noticed.
 *
 * In modules by job, one import for the tests: schema.ts reads the schema, values.ts
 * makes values that keep its rules, violations.ts breaks them.
 */
export * from "./schema";
export { filtered, validValue, type Input, type ValueOptions } from "./values";
export * from "./violations";
