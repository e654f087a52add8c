/**
 * The test fixture of Query (`krcloud:dataquery:Query`, provider/dataquery/query.ts): every fact
 * the tests that walk the types need (tests/resources/fixture.ts says what each is; index.ts
 * derives the tables from them).
 */
import fc from "fast-check";
import { serviceRules, TIMEOUTS, type TypeRules } from "../../support/inputs/cross-field";
import type { Input } from "../../support/inputs/rules";
import { DataQueryClient } from "../../../client/dataquery";
import type { Entry } from "../../support/faults/sim-stack";
import { settled } from "../../support/zero-diff/settle";
import type { CloudKind, DriftFact, FaultRow, OutsideFact, SecretsFact, ZeroDiffSpec } from "../fixture";

/** The SQL of the fault matrix's queries (and the replacement cases'): a total per region. */
export const SQL = "select region, sum(amount) as total from orders group by region order by region";

/** Inputs check accepts, with every secret-bearing input set. */
export const valid: Input = { query: "select 1", bucketName: "valid-bucket", path: "reports" };

/** The rules of its inputs that tie several properties together. */
export function crossFieldRules(): TypeRules {
  return {
    values: TIMEOUTS,
    rules: [
      ...serviceRules(
        "dataSource and database are printable ASCII (they travel as headers; undici sends nothing else)",
        fc.tuple(fc.constantFrom("dataSource", "database"), fc.constantFrom("\n", "\u0000", "\uD55C", "\u{1F600}")),
        ([key, bad]) =>
          (valid) => ({ input: { ...valid, [key]: `shop${bad}` }, path: key, texts: ["must be printable ASCII"] }),
      ),
    ],
  };
}

/** Its row of the fault matrix. */
export const faultRow: FaultRow = {
  deps: (p) => [
    {
      logical: "sales",
      token: "krcloud:dataquery:DataSource",
      args: { type: "MYSQL", instanceId: p.instanceId, username: "reader", password: "Pw-matrix-1" },
    },
  ],
  args: (p, s) => ({ query: SQL, dataSource: s.id("sales"), database: "shop", bucketName: p.resultBucket, path: "reports" }),
  // More captured rows: read again, never run again.
  updated: (p, s) => ({ query: SQL, dataSource: s.id("sales"), database: "shop", bucketName: p.resultBucket, path: "reports", captureRows: 2 }),
  ops: { create: "RunQuery", update: "GetQueryResult", read: "GetQueryResult" },
  noName: "no name: a run is found only by the create key in its SQL comment",
  na: { delete: "a finished query: nothing to remove" },
  stuck: { create: "query" },
  failed: { create: "bad-sql" },
  noun: /data query/,
};

/** Its resources in the zero-diff suite's specs. */
export const zeroDiffSpec: ZeroDiffSpec = {
  base: ({ r, ref }) => [r("query", "krcloud:dataquery:Query", { query: "select 1 as one", bucketName: ref("results", "name") })],
  varied: ({ r, ref, timeouts }) => [
    r("query", "krcloud:dataquery:Query", {
      query: "select region, sum(amount) as total from orders group by region order by region",
      dataSource: ref("ds", "name"),
      database: "analytics",
      bucketName: ref("bucket", "name"),
      path: "reports/ünï",
      reuse: { maxReuseAge: 5 },
      triggers: { zeta: "2", alpha: "1" },
      captureRows: 5,
      timeouts,
    }),
  ],
};

/** What the cloud holds for it: the query run (its id), which the fault matrix finds by the create key in its SQL comment. */
export const cloudKinds = (e: Entry): CloudKind[] => [{ kind: "data-query/query", id: e.id }];

export const drift: DriftFact = { none: "a query is a finished run: the drift check has nothing in the cloud to compare with (unverifiable)" };

/** A query run through the client, waited for until finished. */
export const outside: OutsideFact = {
  notAdoptable: "a query has no adopt: a create runs it again",
  async make({ set, settings, stack, name }) {
    if (set !== "plain") return [];
    const dq = new DataQueryClient({ settings });
    const sql = "select 42 as answer";
    const q = await dq.runQuery({ query: sql, bucketName: stack.resultsBucket, path: "outside" });
    await settled(`data query ${q.queryId}`, async () => (await dq.findQuery(q.queryId))?.queryInfo.state, ["FINISHED"]);
    return [
      {
        name: name("query"),
        type: "krcloud:dataquery:Query",
        importId: q.queryId,
        properties: { query: sql, bucketName: stack.resultsBucket, path: "outside" },
      },
    ];
  },
};

export const secrets: SecretsFact = { none: "no secret input" };
