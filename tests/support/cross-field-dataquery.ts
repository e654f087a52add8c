/**
 * The cross-field rules of the data query types (DataSource, Query): see cross-field-rules.ts.
 */
import fc from "fast-check";
import type { TypeRules } from "./cross-field-rules";
import { keepOneOf, oneOfRules, rule, serviceRules, TIMEOUTS } from "./cross-field-shared";
import type { Input } from "./inputs/rules";

export function dataQueryRules(): Record<string, TypeRules> {
  return {
    "krcloud:dataquery:DataSource": {
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
    },

    "krcloud:dataquery:Query": {
      values: TIMEOUTS,
      rules: [
        ...serviceRules(
          "dataSource and database are printable ASCII (they travel as headers; undici sends nothing else)",
          fc.tuple(fc.constantFrom("dataSource", "database"), fc.constantFrom("\n", "\u0000", "\uD55C", "\u{1F600}")),
          ([key, bad]) =>
            (valid) => ({ input: { ...valid, [key]: `shop${bad}` }, path: key, texts: ["must be printable ASCII"] }),
        ),
      ],
    },
  };
}
