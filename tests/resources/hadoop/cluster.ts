/**
 * The test fixture of Cluster (`krcloud:hadoop:Cluster`, provider/hadoop/cluster.ts): every fact
 * the tests that walk the types need (tests/resources/fixture.ts says what each is; index.ts
 * derives the tables from them).
 */
import fc from "fast-check";
import { arr, keepOneOf, obj, oneOfRules, rule, serviceRules, TIMEOUTS, type Obj, type TypeRules } from "../../support/inputs/cross-field";
import { isPlainObject, type Input } from "../../support/inputs/rules";
import { HadoopClient } from "../../../client/hadoop";
import { canonicalConfig } from "../../../provider/hadoop/cluster";
import type { Entry } from "../../support/faults/sim-stack";
import { settled } from "../../support/zero-diff/settle";
import { SECRET_MARK, type CloudKind, type DriftFact, type FaultRow, type OutsideFact, type SecretsFact, type ZeroDiffSpec } from "../fixture";
import { smallHadoopClusterInput } from "../../harness/hadoop-data";
import { smallCluster } from "./small-cluster";

export { smallCluster };

/** The admin password of the tests that give one as a value. */
export const ADMIN_PASSWORD = "Adm1n-Pw!";

const hadoopArgs = (workers: number) => ({ ...smallCluster, workerCnt: workers, adminPassword: ADMIN_PASSWORD });

/** A job cluster whose task takes any re-run option. */
const jobCluster = { userTask: { type: "spark", terminationPolicy: "always", fileUrl: "bucket/job.jar" } } as const;

/** Inputs check accepts, with every secret-bearing input set. */
export const valid: Input = {
  ...smallCluster,
  name: "valid-hadoop",
  adminPassword: SECRET_MARK,
  metastore: { mysql: { objectId: "db-1", dbName: "hive", userId: "hive", password: SECRET_MARK } },
};

/** The rules of its inputs that tie several properties together. */
export function crossFieldRules(): TypeRules {
  return {
    values: TIMEOUTS,
    keep(i) {
      keepOneOf(i, "adminPassword", "adminPasswordCiphertext", false);
      if (isPlainObject(i.metastore) && isPlainObject(i.metastore.mysql)) keepOneOf(i.metastore.mysql, "password", "passwordCiphertext", true);
      if (i.installComponents !== undefined) i.clusterType = "custom";
      if (i.clusterType === "custom" && arr(i.installComponents).length === 0) i.installComponents = ["hive"];
      const replication = typeof i.hdfsReplication === "number" ? i.hdfsReplication : 3;
      if (typeof i.workerCnt === "number" && i.workerCnt < replication) i.workerCnt = replication;
      if (isPlainObject(i.metastore)) {
        const m = i.metastore;
        if (m.mysql !== undefined && m.dataCatalogId !== undefined) delete m.dataCatalogId;
        if (m.mysql === undefined && m.dataCatalogId === undefined) m.dataCatalogId = "catalog-1";
      }
      if (i.rerun !== undefined && i.userTask === undefined) i.userTask = { type: "spark", terminationPolicy: "always", fileUrl: "bucket/job.jar" };
      if (isPlainObject(i.userTask)) {
        const t = i.userTask;
        if (t.type === "hive") {
          if (t.hiveQuery !== undefined && t.fileUrl !== undefined) delete t.fileUrl;
          if (t.hiveQuery === undefined && t.fileUrl === undefined) t.hiveQuery = "select 1";
          delete t.deployMode;
        }
        if (t.type === "spark" && t.fileUrl === undefined) t.fileUrl = "bucket/job.jar";
      }
      if (isPlainObject(i.rerun)) {
        const r = i.rerun;
        const seen = new Set<unknown>();
        r.instanceSpecs = arr(r.instanceSpecs).filter((s) => !seen.has(obj(s).type) && seen.add(obj(s).type));
        const masters = i.isHa === true ? 3 : 1;
        let workers = typeof i.workerCnt === "number" ? i.workerCnt : 1;
        for (const s of arr(r.instanceSpecs).map(obj)) {
          if (s.type === "MASTER" && s.nodeCnt !== undefined) s.nodeCnt = masters;
          if (s.type === "WORKER" && typeof s.nodeCnt === "number") workers = s.nodeCnt;
        }
        const config = obj(r.config);
        const rerunReplication = typeof config.hdfsReplication === "number" ? config.hdfsReplication : replication;
        if (workers < rerunReplication) {
          if (isPlainObject(r.config) && config.hdfsReplication !== undefined) config.hdfsReplication = workers;
          for (const s of arr(r.instanceSpecs).map(obj))
            if (s.type === "WORKER" && typeof s.nodeCnt === "number") s.nodeCnt = Math.max(workers, rerunReplication);
        }
        if (obj(i.userTask).type === "hive" && isPlainObject(r.userTaskInfo)) delete r.userTaskInfo.deployMode;
      }
    },
    rules: [
      ...oneOfRules("", (i) => i, "adminPassword", "adminPasswordCiphertext", false, ""),
      ...oneOfRules(
        "",
        (i) => {
          const m = isPlainObject(i.metastore) ? i.metastore : (i.metastore = {});
          delete (m as Obj).dataCatalogId;
          if (!isPlainObject((m as Obj).mysql)) (m as Obj).mysql = { objectId: "db-1", dbName: "hive", userId: "hive", password: "pw-1" };
          return (m as Obj).mysql as Obj;
        },
        "password",
        "passwordCiphertext",
        true,
        "metastore.mysql",
      ),
      ...serviceRules("a userScript is not empty (the service refuses an empty Base64 script)", fc.constantFrom(""), (empty) => (valid) => ({
        input: { ...valid, userScript: empty },
        path: "userScript",
        texts: ["must not be empty"],
      })),
      rule(
        "installComponents only for a custom cluster",
        "",
        fc.constantFrom("hadoop", "hbase", "trino", "dataflow").map((type) => (valid) => ({
          input: { ...valid, clusterType: type, installComponents: ["hive"] },
          path: "installComponents",
          texts: ["applies to clusterType custom only"],
        })),
      ),
      rule(
        "a custom cluster lists its components",
        "",
        fc.boolean().map((empty) => (valid) => {
          const input: Input = { ...valid, clusterType: "custom" };
          if (empty) input.installComponents = [];
          else delete input.installComponents;
          return { input, path: "installComponents", texts: ["is required for clusterType custom"] };
        }),
      ),
      rule(
        "workerCnt is at least hdfsReplication",
        "",
        fc.tuple(fc.integer({ min: 1, max: 499 }), fc.integer({ min: 1, max: 500 })).map(([workers, more]) => (valid) => {
          const replication = Math.min(500, workers + more);
          return {
            input: { ...valid, workerCnt: workers, hdfsReplication: replication },
            path: "workerCnt",
            texts: [`must be at least hdfsReplication (${replication})`],
          };
        }),
      ),
      rule(
        "a metastore is a MySQL database or a data catalog, not both",
        "",
        fc.boolean().map((both) => (valid) => ({
          input: {
            ...valid,
            metastore: both ? { mysql: { objectId: "db-1", dbName: "hive", userId: "hive", password: "pw" }, dataCatalogId: "catalog-1" } : {},
          },
          path: "metastore",
          texts: ["set exactly one of mysql and dataCatalogId"],
        })),
      ),
      rule(
        "a hive task has exactly one of hiveQuery and fileUrl",
        "",
        fc.boolean().map((both) => (valid) => ({
          input: { ...valid, userTask: { type: "hive", terminationPolicy: "never", ...(both ? { hiveQuery: "select 1", fileUrl: "bucket/q.sql" } : {}) } },
          path: "userTask.hiveQuery",
          texts: ["a hive task needs exactly one of hiveQuery and fileUrl"],
        })),
      ),
      rule(
        "deployMode is for spark tasks",
        "",
        fc.constantFrom("cluster", "client").map((mode) => (valid) => ({
          input: { ...valid, userTask: { type: "hive", terminationPolicy: "never", hiveQuery: "select 1", deployMode: mode } },
          path: "userTask.deployMode",
          texts: ["applies to spark tasks only"],
        })),
      ),
      rule(
        "a spark task names its JAR",
        "",
        fc.constantFrom("never", "onSuccess", "always").map((policy) => (valid) => ({
          input: { ...valid, userTask: { type: "spark", terminationPolicy: policy } },
          path: "userTask.fileUrl",
          texts: ["a spark task needs the JAR's fileUrl"],
        })),
      ),
      rule(
        "rerun only with a userTask",
        "",
        fc.stringMatching(/^[a-z0-9]{1,8}$/).map((trigger) => (valid) => {
          const input: Input = { ...valid, rerun: { trigger } };
          delete input.userTask;
          return { input, path: "rerun", texts: ["applies to job clusters (with a userTask) only"] };
        }),
      ),
      rule(
        "a re-run lists each instance group once",
        "",
        fc.tuple(fc.constantFrom("MASTER", "WORKER", "TASK"), fc.nat()).map(([type, k]) => (valid) => {
          const specs: Obj[] = [{ type: "MASTER" }, { type: "WORKER", volumeSize: 100 }, { type: "TASK" }];
          specs.splice(k % (specs.length + 1), 0, { type });
          const second = specs.findIndex((s, i) => specs.findIndex((t) => t.type === s.type) < i);
          return {
            input: { ...valid, ...jobCluster, rerun: { trigger: "t", instanceSpecs: specs } },
            path: `rerun.instanceSpecs[${second}].type`,
            texts: [`${String(specs[second]!.type)} is given twice`],
          };
        }),
      ),
      rule(
        "a re-run keeps the cluster's master count (1, or 3 with isHa)",
        "",
        fc.tuple(fc.boolean(), fc.integer({ min: 1, max: 1000 })).map(([ha, n]) => (valid) => {
          const masters = ha ? 3 : 1;
          const nodeCnt = n === masters ? masters + 1 : n;
          return {
            input: { ...valid, ...jobCluster, isHa: ha, rerun: { trigger: "t", instanceSpecs: [{ type: "MASTER", nodeCnt }] } },
            path: "rerun.instanceSpecs[0].nodeCnt",
            texts: [`must be ${masters}: the cluster has ${masters} master node`],
          };
        }),
      ),
      rule(
        "a re-run keeps at least hdfsReplication workers",
        "",
        fc.tuple(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 1, max: 100 }), fc.boolean()).map(([workers, more, bySpec]) => (valid) => {
          const replication = workers + more;
          const input: Input = { ...valid, ...jobCluster };
          if (bySpec) {
            Object.assign(input, { workerCnt: replication, hdfsReplication: replication });
            input.rerun = { trigger: "t", instanceSpecs: [{ type: "WORKER", nodeCnt: workers }] };
            return { input, path: "rerun.instanceSpecs[0].nodeCnt", texts: [`must be at least hdfsReplication (${replication})`] };
          }
          Object.assign(input, { workerCnt: workers, hdfsReplication: 1 });
          input.rerun = { trigger: "t", config: { hdfsReplication: replication } };
          return { input, path: "rerun.config.hdfsReplication", texts: [`must be at most the workers (${workers})`] };
        }),
      ),
      rule(
        "a re-run's deployMode is for spark tasks",
        "",
        fc.constantFrom("cluster", "client").map((mode) => (valid) => ({
          input: {
            ...valid,
            userTask: { type: "hive", terminationPolicy: "always", hiveQuery: "select 1" },
            rerun: { trigger: "t", userTaskInfo: { deployMode: mode } },
          },
          path: "rerun.userTaskInfo.deployMode",
          texts: ["applies to spark tasks only"],
        })),
      ),
    ],
  };
}

/** Its row of the fault matrix. */
export const faultRow: FaultRow = {
  args: () => hadoopArgs(3),
  updated: () => hadoopArgs(4),
  ops: { create: "CreateCluster", update: "ScaleCluster", read: "GetCluster", delete: "DeleteCluster" },
  stuck: { create: "cluster", update: "scale" },
  failed: { create: "hadoop-create-failure" },
};

/** Its resources in the zero-diff suite's specs. */
export const zeroDiffSpec: ZeroDiffSpec = {
  base: ({ fx, s, r }) => [
    r("hadoop", "krcloud:hadoop:Cluster", {
      clusterVersion: "HDE-2.0.1",
      clusterType: "hadoop",
      keypairName: "kp-zero-diff",
      masterFlavorName: "m2a.xlarge",
      workerFlavorName: "m2a.xlarge",
      workerCnt: 3,
      vpcId: "vpc-zero-diff",
      subnetId: "sn-zero-diff",
      adminPassword: s.hadoopAdminPassword,
      metastore: { mysql: { objectId: fx.mysqlInstance, dbName: "hive", userId: "hive", password: s.metastorePassword } },
    }),
  ],
  varied: ({ fx, s, r, ref, tag, timeouts }) => [
    r("hadoop", "krcloud:hadoop:Cluster", {
      name: `${tag}-hadoop`,
      clusterVersion: "Hde-2.0.1",
      clusterType: "custom",
      installComponents: ["spark", "hive", "tez"],
      isHa: true,
      keypairName: "kp-zero-diff",
      masterFlavorName: "m2a.xlarge",
      workerFlavorName: "m2a.2xlarge",
      masterVolumeSize: 200,
      workerVolumeSize: 300,
      workerCnt: 2,
      monitoring: true,
      securityGroupIds: ["sg-h2", "sg-h1"],
      vpcId: "vpc-zero-diff",
      subnetId: "sn-zero-diff",
      adminUserId: "admin",
      adminPassword: s.hadoopAdminPassword,
      hdfsReplication: 2,
      hdfsBlockSize: 256,
      configurations: [
        { classification: "core-site", properties: { "z.key": "1", "a.key": "ünï" } },
        { classification: "user-env:ubuntu", properties: {} },
      ],
      configFileUrl: "https://objectstorage.example/zero-diff/config.json",
      userScript: "#!/bin/bash\r\necho 'zero diff'\r\n",
      userTask: {
        type: "hive",
        terminationPolicy: "never",
        hiveQuery: "select 1",
        execOpts: "--hiveconf hive.exec.parallel=true",
        logBucketName: ref("bucket", "name"),
      },
      metastore: { mysql: { objectId: fx.mysqlInstance, dbName: "hive", userId: "hive", password: s.metastorePassword } },
      redis: { instanceSetId: ref("iset", "id"), dbIdSupersetCelery: 2, dbIdSupersetResults: 3 },
      rerun: { trigger: "first", instanceSpecs: [{ type: "WORKER", nodeCnt: 2 }], config: { hdfsReplication: 2 } },
      timeouts,
      adopt: false,
    }),
  ],
};

/** What the cloud holds for it: the cluster. */
export const cloudKinds = (e: Entry): CloudKind[] => [{ kind: "hadoop/cluster", id: e.id }];

/** The worker count each drifted cluster was given, by name (recorded() gets only outputs). */
const driftedWorkers = new Map<string, number>();

/** Two workers more, through the control API. */
export const drift: DriftFact = {
  recipe: {
    service: "hadoop",
    kind: "cluster",
    root: true,
    snapshot: (rec) => ({ workerCnt: rec.workerCnt }),
    async drift(control, r) {
      const rec = (await control.getResource("hadoop", "cluster", r.id!))!;
      const workers = Number(rec.workerCnt) + 2;
      await control.patchResource("hadoop", "cluster", r.id!, { workerCnt: workers });
      driftedWorkers.set(String(r.outputs?.name), workers);
      return ["workerCnt"];
    },
    recorded: (outs) => outs.workerCnt === driftedWorkers.get(String(outs.name)),
    // A job cluster that ran its job is Terminated: the cloud refuses to scale it, so `up` could not put a drift back.
    applies: (r) => {
      const status = r.outputs?.status;
      return !(typeof status === "string" && /^Terminat/.test(status));
    },
  },
};

/**
 * A cluster made through the client with configuration: without passwords (plain), or with admin
 * and metastore passwords (secret: the cloud never answers them back). Waited for until Running.
 */
export const outside: OutsideFact = {
  async make({ set, settings, fx, s, tag, name }) {
    const secret = set === "secret";
    const hadoop = new HadoopClient({ settings });
    const hadoopName = `${tag}-hadoop`;
    const configurations = [{ classification: "core-site", properties: { "io.file.buffer.size": "65536" } }];
    const h = await hadoop.createCluster({
      ...smallHadoopClusterInput(hadoopName, { keypairName: "kp-outside", vpcId: "vpc-outside", subnetId: "sn-outside" }),
      adminInfo: { userId: "hue-admin", ...(secret ? { userPw: s.hadoopAdminPassword } : {}) },
      config: { hdfsReplication: 2, hdfsBlockSize: 128, configText: canonicalConfig(configurations) },
      ...(secret ? { hiveMetastoreInfo: { mySqlInfo: { objectId: fx.mysqlInstance, dbName: "hive", userId: "hive", userPw: s.metastorePassword } } } : {}),
    });
    await settled(`Hadoop cluster ${h.id}`, async () => (await hadoop.getCluster(h.id)).status, ["Running"]);
    return [
      {
        name: name("hadoop"),
        type: "krcloud:hadoop:Cluster",
        importId: h.id,
        properties: {
          name: hadoopName,
          clusterVersion: "HDE-2.0.1",
          clusterType: "hadoop",
          keypairName: "kp-outside",
          masterFlavorName: "m2a.xlarge",
          workerFlavorName: "m2a.xlarge",
          workerCnt: 2,
          vpcId: "vpc-outside",
          subnetId: "sn-outside",
          adminUserId: "hue-admin",
          hdfsReplication: 2,
          configurations,
          ...(secret
            ? {
                adminPassword: s.hadoopAdminPassword,
                metastore: { mysql: { objectId: fx.mysqlInstance, dbName: "hive", userId: "hive", password: s.metastorePassword } },
              }
            : {}),
        },
        adopt: { adopt: true },
      },
    ];
  },
};

/** Its admin and metastore passwords: given as KMS ciphertexts, and sent by a create that then fails (a create-failure rule: the cluster ends Terminated). */
export const secrets: SecretsFact = {
  holder: {
    asCiphertexts: ({ adminPassword: _admin, ...p }, kms) => {
      const { password: _password, ...mysql } = (p.metastore as { mysql: Record<string, unknown> }).mysql;
      return { ...p, adminPasswordCiphertext: kms("hadoopAdminPassword"), metastore: { mysql: { ...mysql, passwordCiphertext: kms("metastorePassword") } } };
    },
    failing: {
      name: (tag) => `${tag}-fail-hadoop`,
      request: ["hadoop", "CreateCluster"],
      async plant(control, name) {
        await control.patchResource("hadoop", "create-failure", name, { reason: "no capacity in the zone" });
        return () => control.deleteResource("hadoop", "create-failure", name);
      },
    },
  },
};
