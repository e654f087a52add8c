/**
 * The test fixture of ParameterGroup (`krcloud:cache:ParameterGroup`,
 * provider/cache/parameter-group.ts): every fact the tests that walk the types need
 * (tests/resources/fixture.ts says what each is; index.ts derives the tables from them).
 */
import fc from "fast-check";
import { rule, TIMEOUTS, type TypeRules } from "../../support/inputs/cross-field";
import type { Input } from "../../support/inputs/rules";
import { CacheClient } from "../../../client/cache";
import { isSecret } from "../../harness/engine/state";
import type { Entry } from "../../support/faults/sim-stack";
import type { CloudKind, DriftFact, FaultRow, OutsideFact, SecretsFact, ZeroDiffSpec } from "../fixture";
import { CLUSTER_GROUP, DRIFTED_DESCRIPTION } from "./cluster";
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

/** What the cloud holds for it: the parameter group. */
export const cloudKinds = (e: Entry): CloudKind[] => [{ kind: "cache/parameter-group", id: e.id }];

/**
 * Its description changed, and its `timeout` parameter set to 1 where the program manages it (a
 * group manages only the parameters the program sets), through the control API.
 */
export const drift: DriftFact = {
  recipe: {
    service: "cache",
    kind: "parameter-group",
    root: true,
    snapshot: (rec) => ({
      description: rec.description,
      parameters: Object.fromEntries((rec.parameters as { parameterKey: string; parameterValue: string }[]).map((p) => [p.parameterKey, p.parameterValue])),
    }),
    async drift(control, r) {
      const managesTimeout = (r.outputs?.parameters as Record<string, string> | undefined)?.timeout !== undefined;
      await control.patchResource("cache", "parameter-group", r.id!, {
        description: DRIFTED_DESCRIPTION,
        ...(managesTimeout ? { values: { timeout: "1" } } : {}),
      });
      return managesTimeout ? ["description", "parameters"] : ["description"];
    },
    recorded: (outs) => {
      const timeout = (outs.parameters as Record<string, string> | undefined)?.timeout;
      return outs.description === DRIFTED_DESCRIPTION && (isSecret(outs.parameters) || timeout === undefined || timeout === "1");
    },
  },
};

/** A parameter group made and modified through the client. */
export const outside: OutsideFact = {
  async make({ set, settings, tag, name }) {
    if (set !== "plain") return [];
    const cache = new CacheClient({ settings });
    const groupName = `${tag}-params`;
    const { id } = await cache.parameterGroups.create({ parameterGroupId: CLUSTER_GROUP, name: groupName, description: "made outside" });
    await cache.parameterGroups.modify(id, { parameters: { timeout: "120" }, applyMode: "sequential" });
    return [
      {
        name: name("params"),
        type: "krcloud:cache:ParameterGroup",
        importId: id,
        properties: { name: groupName, baseParameterGroupId: CLUSTER_GROUP, description: "made outside", parameters: { timeout: "120" } },
        adopt: { adopt: true },
      },
    ];
  },
};

export const secrets: SecretsFact = { none: "no secret input" };
