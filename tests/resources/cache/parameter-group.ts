/**
 * The test fixture of ParameterGroup (`krcloud:cache:ParameterGroup`,
 * provider/cache/parameter-group.ts): its valid inputs, the cross-field rules of its inputs, its
 * row of the fault matrix and its resources in the zero-diff specs (tests/resources/fixture.ts says
 * what each is; index.ts derives the tables from them).
 */
import { TIMEOUTS, type TypeRules } from "../../support/inputs/cross-field";
import type { Input } from "../../support/inputs/rules";
import type { FaultRow, ZeroDiffSpec } from "../fixture";
import { CLUSTER_GROUP } from "./cluster";
import { STANDALONE_GROUP } from "./instance-set";

/** Inputs check accepts, with every secret-bearing input set. */
export const valid: Input = { name: "valid-params", baseParameterGroupId: "default.redis7.cluster", parameters: { "maxmemory-policy": "allkeys-lru" } };

/** The rules of its inputs that tie several properties together. */
export function crossFieldRules(): TypeRules {
  return { values: TIMEOUTS, rules: [] };
}

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
