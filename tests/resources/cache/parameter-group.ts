/**
 * The test fixture of ParameterGroup (`krcloud:cache:ParameterGroup`,
 * provider/cache/parameter-group.ts): its valid inputs, the cross-field rules of its inputs, its
 * row of the fault matrix and its resources in the zero-diff specs (tests/resources/fixture.ts says
 * what each is; index.ts derives the tables from them).
 */
import fc from "fast-check";
import { rule, TIMEOUTS, type TypeRules } from "../../support/inputs/cross-field";
import type { Input } from "../../support/inputs/rules";
import type { FaultRow, ZeroDiffSpec } from "../fixture";
import { CLUSTER_GROUP } from "./cluster";
import { STANDALONE_GROUP } from "./instance-set";

/** Inputs check accepts, with every secret-bearing input set. */
export const valid: Input = { name: "valid-params", baseParameterGroupId: "default.redis7.0.cluster", parameters: { "maxmemory-policy": "allkeys-lru" } };

/** The rules of its inputs that tie several properties together. */
export function crossFieldRules(): TypeRules {
  return {
    // check reads the base group's catalogue from the cloud: valid values come from it (the local
    // cloud's default.redis7.0.cluster), and the rules it checks there are "service" rules.
    values: { ...TIMEOUTS, baseParameterGroupId: fc.constant("default.redis7.0.cluster"), parameters: CATALOGUE_VALUES },
    rules: [
      rule(
        "a parameter the base group's catalogue does not have is refused at preview (read from the cloud)",
        "service",
        fc.stringMatching(/^[a-z][a-z-]{2,12}$/).map((key) => (valid) => ({
          input: { ...valid, parameters: { [`no-such-${key}`]: "1" } },
          path: `parameters.no-such-${key}`,
          texts: ["is not a parameter of this group", "read from the cloud"],
        })),
      ),
      rule(
        "a value outside the catalogue's range or enumeration is refused at preview (read from the cloud)",
        "service",
        fc
          .constantFrom<[string, string]>(["timeout", "-5"], ["maxmemory-policy", "sometimes"], ["maxmemory-samples", "65"], ["appendonly", "maybe"])
          .map(([key, value]) => (valid) => ({
            input: { ...valid, parameters: { [key]: value } },
            path: `parameters.${key}`,
            texts: [value, "read from the cloud"],
          })),
      ),
    ],
  };
}

/** Parameter maps the local cloud's default.redis7.0.cluster catalogue accepts (local-cloud/cache/catalogue.ts). */
const CATALOGUE_VALUES = fc
  .record(
    {
      "maxmemory-policy": fc.constantFrom("volatile-lru", "allkeys-lru", "volatile-lfu", "allkeys-lfu", "noeviction"),
      timeout: fc.integer({ min: 0, max: 100000 }).map(String),
      "maxmemory-samples": fc.integer({ min: 1, max: 64 }).map(String),
      "tcp-keepalive": fc.integer({ min: 0, max: 3600 }).map(String),
      appendonly: fc.constantFrom("yes", "no"),
    },
    { requiredKeys: [] },
  )
  .map((m) => m as Record<string, string>);

/** Its row of the fault matrix. */
export const faultRow: FaultRow = {
  service: "cache",
  args: () => ({ baseParameterGroupId: "default.redis7.0.cluster", parameters: { "maxmemory-policy": "allkeys-lru" } }),
  updated: () => ({ baseParameterGroupId: "default.redis7.0.cluster", parameters: { "maxmemory-policy": "volatile-lru" } }),
  ops: { create: "CreateParameterGroup", update: "ModifyParameterGroup", read: "GetParameterGroup", delete: "DeleteParameterGroup" },
};

/** Its resources in the zero-diff suite's specs. */
export const zeroDiffSpec: ZeroDiffSpec = {
  base: ({ r }) => [r("params", "krcloud:cache:ParameterGroup", { baseParameterGroupId: CLUSTER_GROUP })],
  varied: ({ r, tag, timeouts }) => [
    r("params", "krcloud:cache:ParameterGroup", {
      name: `${tag}-params`,
      baseParameterGroupId: CLUSTER_GROUP,
      description: "세션 파라미터 — ünïcode",
      parameters: { timeout: "300", "maxmemory-policy": "allkeys-lru", "maxmemory-samples": "7" },
      applyMode: "parallel",
      timeouts,
      adopt: false,
    }),
    r("params-empty", "krcloud:cache:ParameterGroup", { baseParameterGroupId: STANDALONE_GROUP, parameters: {} }),
  ],
};
