/**
 * The test fixture of DataSource (`krcloud:dataquery:DataSource`,
 * provider/dataquery/data-source.ts): its valid inputs, the cross-field rules of its inputs, its
 * row of the fault matrix and its resources in the zero-diff specs (tests/resources/fixture.ts says
 * what each is; index.ts derives the tables from them).
 */
import fc from "fast-check";
import { keepOneOf, oneOfRules, rule, type TypeRules } from "../../support/inputs/cross-field";
import type { Input } from "../../support/inputs/rules";
import { SECRET_MARK, type FaultRow, type ZeroDiffSpec } from "../fixture";

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
  service: "data-query",
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
