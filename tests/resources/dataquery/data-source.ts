/**
 * The test fixture of DataSource (`krcloud:dataquery:DataSource`,
 * provider/dataquery/data-source.ts): every fact the tests that walk the types need
 * (tests/resources/fixture.ts says what each is; index.ts derives the tables from them).
 */
import fc from "fast-check";
import { keepOneOf, oneOfRules, rule, type TypeRules } from "../../support/inputs/cross-field";
import type { Input } from "../../support/inputs/rules";
import { DataQueryClient } from "../../../client/dataquery";
import type { Entry } from "../../support/faults/sim-stack";
import { SECRET_MARK, type CloudKind, type DriftFact, type FaultRow, type OutsideFact, type SecretsFact, type ZeroDiffSpec } from "../fixture";

/** Inputs check accepts, with every secret-bearing input set. */
export const valid: Input = { name: "valid_ds", type: "MYSQL", instanceId: "db-1", username: "reader", password: SECRET_MARK };

/** The rules of its inputs that tie several properties together. */
export function crossFieldRules(): TypeRules {
  return {
    keep(i) {
      if (i.type === "POSTGRESQL" && i.databaseName === undefined) i.databaseName = "app";
      if (i.type === "MYSQL") delete i.databaseName;
      keepOneOf(i, "password", "passwordCiphertext", true);
    },
    rules: [
      ...oneOfRules("", (i) => i, "password", "passwordCiphertext", true, ""),
      rule(
        "a PostgreSQL data source names its database",
        "",
        fc.constant((valid) => {
          const input: Input = { ...valid, type: "POSTGRESQL" };
          delete input.databaseName;
          return { input, path: "databaseName", texts: ["is required for a PostgreSQL data source"] };
        }),
      ),
      rule(
        "a MySQL data source takes no database name",
        "",
        fc.stringMatching(/^[a-z]{1,10}$/).map((db) => (valid) => ({
          input: { ...valid, type: "MYSQL", databaseName: db },
          path: "databaseName",
          texts: ["applies to PostgreSQL data sources only"],
        })),
      ),
    ],
  };
}

/** Its row of the fault matrix. */
export const faultRow: FaultRow = {
  args: (p) => ({ type: "MYSQL", instanceId: p.instanceId, username: "reader", password: "Pw-matrix-1" }),
  ops: { create: "CreateDataSource", read: "ListDataSources", delete: "DeleteDataSource" },
  na: { update: "every change replaces (no update API)" },
};

/** Its resources in the zero-diff suite's specs. */
export const zeroDiffSpec: ZeroDiffSpec = {
  base: ({ fx, s, r }) => [
    r("ds", "krcloud:dataquery:DataSource", { type: "MYSQL", instanceId: fx.mysqlInstance, username: "reader", password: s.dataSourcePassword }),
  ],
  varied: ({ fx, s, r, tag }) => [
    r("ds", "krcloud:dataquery:DataSource", {
      name: `${tag}_pg_source`,
      type: "POSTGRESQL",
      scope: "PUBLIC",
      description: "포스트그레스 ünï",
      instanceId: fx.pgInstance,
      username: "analyst",
      password: s.dataSourcePassword,
      databaseName: "analytics",
      adopt: false,
    }),
  ],
};

/** What the cloud holds for it: the data source (its id is its name). */
export const cloudKinds = (e: Entry): CloudKind[] => [{ kind: "data-query/data-source", id: e.id }];

/** What its description becomes when it is made again by hand. */
export const EDITED = "edited by hand";

/** Deleted and made again by hand with another description, through the public API (the client). */
export const drift: DriftFact = {
  noRecipe:
    "the control API does not edit a data source, and every change replaces one (no update API), where the examples' drift test expects an update in place",
  async change({ settings, fx, s }, r) {
    const dq = new DataQueryClient({ settings });
    await dq.deleteDataSource(r.id!);
    await dq.createDataSource({
      name: r.id!,
      type: "MYSQL",
      scope: "PRIVATE",
      instanceId: fx.mysqlInstance,
      username: "reader",
      password: s.dataSourcePassword,
      description: EDITED,
    });
    return ["description"];
  },
};

/** A data source made through the client (secret set: the cloud never answers its instance, user and password back). */
export const outside: OutsideFact = {
  async make({ set, settings, fx, s, tag, name }) {
    if (set !== "secret") return [];
    const dsName = `${tag}_source`;
    await new DataQueryClient({ settings }).createDataSource({
      type: "MYSQL",
      name: dsName,
      scope: "PRIVATE",
      description: "made outside",
      instanceId: fx.mysqlInstance,
      username: "reader",
      password: s.dataSourcePassword,
    });
    return [
      {
        name: name("ds"),
        type: "krcloud:dataquery:DataSource",
        importId: dsName,
        properties: {
          name: dsName,
          type: "MYSQL",
          description: "made outside",
          instanceId: fx.mysqlInstance,
          username: "reader",
          password: s.dataSourcePassword,
        },
        adopt: { adopt: true },
      },
    ];
  },
};

/** Its password: given as a KMS ciphertext, and sent by a create that then fails (the first listing of data sources refused). */
export const secrets: SecretsFact = {
  holder: {
    asCiphertexts: ({ password: _password, ...p }, kms) => ({ ...p, passwordCiphertext: kms("dataSourcePassword") }),
    failing: {
      // Data source names take underscores, not hyphens.
      name: (tag) => `${tag}_fail_source`,
      request: ["data-query", "CreateDataSource"],
      async plant(control) {
        await control.addFault({ service: "data-query", operation: "ListDataSources", action: "error", status: 400, times: 1 });
        return async () => undefined;
      },
    },
  },
};
