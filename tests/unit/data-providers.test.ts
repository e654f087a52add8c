/**
 * Key management, data query and Hadoop resources without a cloud: check (every rule named with its
 * property path, no request), diff (what replaces, what changes in place), canonical configuration.
 */
import { provider } from "../../provider/runtime";
import { canonicalConfig } from "../../provider/hadoop/cluster";
import { smallCluster } from "../resources/hadoop/cluster";
import { configuredProvider } from "../support/servers/configured";

configuredProvider();

const P = "stub";
const ciphertext = provider("krcloud:kms:Ciphertext");
const dataKey = provider("krcloud:kms:DataKey");
const dataSource = provider("krcloud:dataquery:DataSource");
const query = provider("krcloud:dataquery:Query");
const hadoop = provider("krcloud:hadoop:Cluster");

describe("kms", () => {
  test("Ciphertext: plaintext 4 KB and AAD 64 KB in UTF-8 bytes, a key id", async () => {
    const ok = await ciphertext.check({}, { keyId: "k-1", plaintext: "é".repeat(2048), aad: "ctx", __provider: P });
    expect(ok.failures).toBeUndefined();
    const bad = await ciphertext.check({}, { keyId: "", plaintext: "é".repeat(2049), aad: "a".repeat(65537), __provider: P });
    expect(bad.failures).toEqual([
      { property: "keyId", reason: "keyId: must not be empty" },
      { property: "plaintext", reason: "plaintext: plaintext must be at most 4096 bytes (counted in UTF-8; a limit of the key management service)" },
      { property: "aad", reason: "aad: aad must be at most 65536 bytes (counted in UTF-8; a limit of the key management service)" },
    ]);
  });

  test("Ciphertext and DataKey: every input change replaces; nothing else changes", async () => {
    const olds = { keyId: "k-1", plaintext: "s3cret", ciphertext: "kms:1:AAA", keyVersion: 1 };
    for (const [k, v] of Object.entries({ keyId: "k-2", plaintext: "other", aad: "ctx", triggers: { rotate: "2026" } })) {
      const { inputs } = await ciphertext.check(olds, { keyId: "k-1", plaintext: "s3cret", [k]: v, __provider: P });
      expect((await ciphertext.diff("id", olds, inputs)).replaces).toEqual([k]);
    }
    const same = await ciphertext.check(olds, { keyId: "k-1", plaintext: "s3cret", __provider: P });
    expect(await ciphertext.diff("id", olds, same.inputs)).toMatchObject({ changes: false });
    const dk = { keyId: "k-1", plaintext: "AAAA", ciphertext: "kms:1:B" };
    const { inputs } = await dataKey.check(dk, { keyId: "k-1", triggers: { n: "2" }, __provider: P });
    expect((await dataKey.diff("id", dk, inputs)).replaces).toEqual(["triggers"]);
  });
});

describe("data query", () => {
  test("DataSource: name rule, PostgreSQL needs a database, MySQL takes none; auto-named with underscores", async () => {
    const bad = await dataSource.check({}, { name: "Sales-DB", type: "POSTGRESQL", instanceId: "i", username: "u", password: "p", __provider: P });
    expect(bad.failures).toEqual([
      { property: "name", reason: "name: must be 3 to 72 lower-case letters, digits or underscores" },
      { property: "databaseName", reason: "databaseName: is required for a PostgreSQL data source" },
    ]);
    const my = await dataSource.check(
      {},
      { type: "MYSQL", instanceId: "i", username: "u", password: "p", databaseName: "x", __logicalName: "Sales-DB", __provider: P },
    );
    expect(my.failures).toEqual([{ property: "databaseName", reason: "databaseName: applies to PostgreSQL data sources only" }]);
    const named = await dataSource.check({}, { type: "MYSQL", instanceId: "i", username: "u", password: "p", __logicalName: "Sales-DB", __provider: P });
    expect(named.inputs.name).toMatch(/^sales_db_[0-9a-f]{7}$/);
    expect(named.inputs.scope).toBe("PRIVATE");
  });

  test("DataSource: every change but adopt replaces, deleting first (names are unique)", async () => {
    const olds = { name: "sales", type: "MYSQL", scope: "PRIVATE", instanceId: "i", username: "u", password: "p", adopt: false };
    const { inputs } = await dataSource.check(olds, { ...olds, password: "p2", __provider: P });
    expect(await dataSource.diff("sales", olds, inputs)).toMatchObject({ replaces: ["password"], deleteBeforeReplace: true });
    const adopt = await dataSource.check(olds, { ...olds, adopt: true, __provider: P });
    expect(await dataSource.diff("sales", olds, adopt.inputs)).toMatchObject({ changes: true, replaces: [] });
  });

  test("Query: reuse age 1-1440, captureRows 0-1000, non-empty SQL", async () => {
    const bad = await query.check({}, { query: " ", bucketName: "b", reuse: { maxReuseAge: 0 }, captureRows: 1001, __provider: P });
    expect((bad.failures ?? []).map((f) => f.reason)).toEqual([
      "query: must not be empty",
      "reuse.maxReuseAge: must be from 1 to 1440 minutes",
      "captureRows: must be from 0 to 1000 (the API serves at most 1000 rows)",
    ]);
  });

  test("Query: SQL, data source, database, result location and triggers run it again; reuse, captureRows and timeouts do not", async () => {
    const olds = { query: "select 1", bucketName: "b", path: "p", captureRows: 0, queryId: "q", state: "FINISHED", columns: [], rows: [] };
    for (const [k, v] of Object.entries({ query: "select 2", dataSource: "ds", database: "db", bucketName: "c", path: "q", triggers: { day: "2" } })) {
      const { inputs } = await query.check(olds, { query: "select 1", bucketName: "b", path: "p", [k]: v, __provider: P });
      expect((await query.diff("q", olds, inputs)).replaces).toEqual([k]);
    }
    for (const [k, v] of Object.entries({ reuse: { maxReuseAge: 60 }, captureRows: 10, timeouts: { create: "5m" } })) {
      const { inputs } = await query.check(olds, { query: "select 1", bucketName: "b", path: "p", [k]: v, __provider: P });
      expect(await query.diff("q", olds, inputs)).toMatchObject({ changes: true, replaces: [] });
    }
  });
});

describe("hadoop", () => {
  const base = { name: "etl", ...smallCluster };

  test("check: version shape, components only for custom, workers at least the replication, Redis ids 0-15, one metastore", async () => {
    const bad = await hadoop.check(
      {},
      {
        ...base,
        clusterVersion: "2.0.0",
        installComponents: ["hive"],
        workerCnt: 2,
        hdfsReplication: 3,
        redis: { instanceSetId: "is-1", dbIdSupersetCelery: 16 },
        metastore: {},
        __provider: P,
      },
    );
    expect((bad.failures ?? []).map((f) => f.reason).sort()).toEqual(
      [
        "clusterVersion: must look like HDE-2.0.0 (<PREFIX>-X.X.X)",
        "installComponents: applies to clusterType custom only",
        "metastore: set exactly one of mysql and dataCatalogId",
        "redis.dbIdSupersetCelery: must be from 0 to 15 (Redis database ids)",
        "workerCnt: must be at least hdfsReplication (3)",
      ].sort(),
    );
    const ok = await hadoop.check({}, { ...base, __provider: P });
    expect(ok.failures).toBeUndefined();
    expect(ok.inputs).toMatchObject({ hdfsReplication: 3, hdfsBlockSize: 128, isHa: false, monitoring: false });
  });

  test("diff: workers and re-runs change in place; everything else replaces; CRLF and LF scripts are the same", async () => {
    const { inputs: olds } = await hadoop.check({}, { ...base, userScript: "echo a\necho b\n", __provider: P });
    const more = await hadoop.check(olds, { ...base, workerCnt: 5, userScript: "echo a\r\necho b\r\n", __provider: P });
    expect(await hadoop.diff("c", olds, more.inputs)).toMatchObject({ changes: true, replaces: [] });
    const flavor = await hadoop.check(olds, { ...base, workerFlavorName: "m2a.2xlarge", userScript: "echo a\necho b\n", __provider: P });
    expect((await hadoop.diff("c", olds, flavor.inputs)).replaces).toEqual(["workerFlavorName"]);
  });

  test("configuration is canonical: property order never changes the text sent", () => {
    const a = canonicalConfig([{ classification: "core-site", properties: { b: "2", a: "1" } }]);
    const b = canonicalConfig([{ classification: "core-site", properties: { a: "1", b: "2" } }]);
    expect(a).toBe(b);
    expect(a).toBe('{"configurations":[{"classification":"core-site","properties":{"a":"1","b":"2"}}]}');
  });
});
