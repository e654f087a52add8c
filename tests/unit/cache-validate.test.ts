/** Validation for the provider's `check` (seed 02 §4, §8): every failure reported, with its property path. */
import fc from "fast-check";
import {
  backupCronForHour,
  containsEmoji,
  formatFailures,
  validateAddShardInput,
  validateBackupSchedule,
  validateClusterName,
  validateCreateClusterInput,
  validateCreateInstanceSetInput,
  validateCreateParameterGroupInput,
  validateDescription,
  validateInstanceSetName,
  validateModifyParameterGroupInput,
  validatePort,
  validateRestoreFiles,
  validateShardCount,
  validateSubnetAssignments,
  validateUpdateInput,
  type CreateClusterInput,
  type CreateInstanceSetInput,
} from "../../sdk/cache";

const props = (f: { property: string }[]) => f.map((x) => x.property);

describe("instance set name (4-20, lower case, digits, '-', starts with a letter, ends with letter/digit, no '--')", () => {
  test.each(["abcd", "a-b-c", "web1", "a234567890123456789z", "sessions-01"])("accepts %p", (n) => {
    expect(validateInstanceSetName(n)).toEqual([]);
  });
  test.each([
    ["abc", /4 to 20/],
    ["a2345678901234567890z", /4 to 20/],
    ["Abcd", /lower-case letters|start with/],
    ["1abc", /start with a lower-case letter/],
    ["abc-", /end with/],
    ["ab--cd", /consecutive/],
    ["ab cd", /spaces/],
    ["ab_cd", /only lower-case letters/],
    ["", /required/],
  ])("rejects %p", (n, reason) => {
    const f = validateInstanceSetName(n);
    expect(f.length).toBeGreaterThan(0);
    expect(f.map((x) => x.reason).join("; ")).toMatch(reason);
    expect(new Set(props(f))).toEqual(new Set(["instanceSetName"]));
  });
  test("reports every broken rule at once", () => {
    expect(validateInstanceSetName("-A--").map((f) => f.reason)).toHaveLength(4);
  });
  test("property: every generated valid name passes; a name passes only if it matches the rule's regular expression", () => {
    const valid = fc
      .tuple(
        fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz"),
        fc.array(fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789"), { minLength: 2, maxLength: 17 }),
        fc.constantFrom(..."abz09"),
      )
      .map(([a, mid, z]) => `${a}${mid.join("")}${z}`);
    fc.assert(fc.property(valid, (n) => validateInstanceSetName(n).length === 0));
    const re = /^(?!.*--)[a-z][a-z0-9-]{2,18}[a-z0-9]$/;
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom(..."ab1-_ A"), maxLength: 24 }), (n) => (validateInstanceSetName(n).length === 0) === re.test(n)));
  });
  test("cluster names follow the same rule (reading: the seed states none for clusters)", () => {
    expect(validateClusterName("web")).toHaveLength(1);
    expect(validateClusterName("web-cache")).toEqual([]);
    expect(props(validateClusterName("WEB"))).toContain("name");
  });
});

describe("description (<= 100, no CR/LF, no emoji)", () => {
  test("accepts 100 characters, Korean text, ©, ™, empty and undefined", () => {
    for (const d of ["x".repeat(100), "세션 캐시", "© 2026 Acme™", "", undefined]) expect(validateDescription(d)).toEqual([]);
  });
  test("counts code points: 100 Korean syllables pass, 101 fail", () => {
    expect(validateDescription("가".repeat(100))).toEqual([]);
    expect(validateDescription("가".repeat(101))[0]!.reason).toMatch(/at most 100/);
  });
  test.each(["line\nbreak", "cr\rhere", "rocket 🚀", "heart ❤️", "flag 🇰🇷", "keycap 1️⃣"])("rejects %p", (d) => {
    expect(validateDescription(d).length).toBeGreaterThan(0);
  });
  test("all failures at once", () => {
    expect(validateDescription(`${"x".repeat(120)}\n😀`).map((f) => f.reason)).toHaveLength(3);
  });
  test("emoji detection leaves text symbols alone", () => {
    expect(["©", "®", "™", "→", "★"].map(containsEmoji)).toEqual([false, false, false, false, false]);
    expect(["😀", "⌚", "✈️"].map(containsEmoji)).toEqual([true, true, true]);
  });
});

describe("limits", () => {
  test("port 2000-50000 and shard count 1-12, integers", () => {
    expect([2000, 50000, 6379].flatMap((p) => validatePort(p))).toEqual([]);
    expect([1999, 50001, 6379.5, "6379"].map((p) => validatePort(p).length)).toEqual([1, 1, 1, 1]);
    expect([1, 12].flatMap((n) => validateShardCount(n))).toEqual([]);
    expect([0, 13, 2.5].map((n) => validateShardCount(n).length)).toEqual([1, 1, 1]);
  });
});

describe("backup schedule", () => {
  test("instance sets: hour only (0-23, plain number), other fields '*', retention 1-35", () => {
    expect(validateBackupSchedule({ cron: "* 3 * * *", retentionLimit: 35 }, "instance-set")).toEqual([]);
    expect(validateBackupSchedule({ cron: backupCronForHour(23), retentionLimit: 1 }, "instance-set")).toEqual([]);
    expect(validateBackupSchedule({ cron: "0 3 * * *" }, "instance-set")[0]!.reason).toMatch(/minute must be '\*'/);
    expect(validateBackupSchedule({ cron: "* */2 * * *" }, "instance-set")[0]!.reason).toMatch(/without special characters/);
    expect(validateBackupSchedule({ cron: "* 24 * * *" }, "instance-set")).toHaveLength(1);
    expect(validateBackupSchedule({ cron: "* 3 * *" }, "instance-set")[0]!.reason).toMatch(/5 fields/);
    expect(props(validateBackupSchedule({ cron: "* 3 * * *", retentionLimit: 36 }, "instance-set"))).toEqual(["backupSchedule.retentionLimit"]);
    expect(validateBackupSchedule({ cron: "* 3 * * *", retentionLimit: 0 }, "instance-set")).toHaveLength(1);
  });
  test("every failure at once: three non-'*' fields, a bad hour and a bad retention", () => {
    expect(validateBackupSchedule({ cron: "0 x 1 1 *", retentionLimit: 99 }, "instance-set")).toHaveLength(5);
  });
  test("property: exactly the hours 0-23 pass for instance sets", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -5, max: 60 }),
        (h) => (validateBackupSchedule({ cron: `* ${h} * * *` }, "instance-set").length === 0) === (h >= 0 && h <= 23),
      ),
    );
  });
  test("clusters: any valid 5-field cron, retention at least one day", () => {
    for (const cron of ["0 3 * * *", "*/15 1-5 * JAN-MAR MON,FRI", "30 2 1 * 0"])
      expect(validateBackupSchedule({ cron, retentionLimit: 60 }, "cluster")).toEqual([]);
    expect(validateBackupSchedule({ cron: "60 3 * * *" }, "cluster")[0]!.reason).toMatch(/minute/);
    expect(validateBackupSchedule({ cron: "0 3 32 * *" }, "cluster")[0]!.reason).toMatch(/day of month/);
    expect(validateBackupSchedule({ cron: "0 3 * * *", retentionLimit: 0 }, "cluster")).toHaveLength(1);
  });
  test("an empty cron turns backups off only in updates; null too", () => {
    expect(validateBackupSchedule({ cron: "" }, "cluster")).toHaveLength(1);
    expect(validateBackupSchedule({ cron: "" }, "cluster", { allowDisable: true })).toEqual([]);
    expect(validateBackupSchedule(null, "instance-set", { allowDisable: true })).toEqual([]);
    expect(validateBackupSchedule(undefined, "instance-set")).toEqual([]);
  });
});

describe("placement", () => {
  const subnets = [{ id: "a" }, { id: "b" }];
  test("subnets used must be listed; entries and replicas counted", () => {
    const f = validateSubnetAssignments(
      subnets,
      [
        { primary: { id: "a" }, replicas: [{ id: "c" }] },
        { primary: { id: "" }, replicas: [] },
      ],
      { entries: 3, replicasEach: 1 },
    );
    expect(props(f)).toEqual(["subnetAssignments", "subnetAssignments[0].replicas[0].id", "subnetAssignments[1].primary.id", "subnetAssignments[1].replicas"]);
  });
  test("total nodes for instance sets", () => {
    expect(validateSubnetAssignments(subnets, [{ primary: { id: "a" }, replicas: [{ id: "b" }] }], { totalNodes: 3 })[0]!.reason).toMatch(/3 node/);
    expect(validateSubnetAssignments(subnets, [{ primary: { id: "a" }, replicas: [{ id: "b" }] }], { totalNodes: 2 })).toEqual([]);
  });
  test("restore files: bucket/folder/.../file", () => {
    expect(validateRestoreFiles(["b/f.rdb", "b/x/y/z.rdb"])).toEqual([]);
    expect(props(validateRestoreFiles(["/b/f", "f.rdb", "b//f", 3]))).toEqual([
      "restoreSource.files[0]",
      "restoreSource.files[1]",
      "restoreSource.files[2]",
      "restoreSource.files[3]",
    ]);
    expect(validateRestoreFiles([])).toHaveLength(1);
  });
});

describe("whole inputs", () => {
  const cluster: CreateClusterInput = {
    name: "web-cache",
    version: "7.0.15",
    port: 6379,
    shardCount: 2,
    nodeCountPerShard: 2,
    flavorId: "f",
    parameterGroupId: "pg",
    subnets: [{ id: "a" }, { id: "b" }],
    subnetAssignments: [
      { primary: { id: "a" }, replicas: [{ id: "b" }] },
      { primary: { id: "b" }, replicas: [{ id: "a" }] },
    ],
    securityGroups: [{ id: "sg" }],
  };
  const set: CreateInstanceSetInput = {
    instanceSetName: "sessions",
    replicas: 2,
    flavorId: "f",
    recoveryEnabled: true,
    subnets: [{ id: "a" }],
    subnetAssignments: [{ primary: { id: "a" }, replicas: [{ id: "a" }] }],
    securityGroups: [{ id: "sg" }],
    parameterGroupId: "pg",
    port: 6379,
    version: "7.0.15",
  };

  test("a valid cluster passes; a restore needs a backup name", () => {
    expect(validateCreateClusterInput(cluster)).toEqual([]);
    expect(validateCreateClusterInput({ ...cluster, restoreSource: { backupName: "bk" } })).toEqual([]);
    expect(props(validateCreateClusterInput({ ...cluster, restoreSource: { backupName: "" } }))).toEqual(["restoreSource.backupName"]);
  });

  test("a cluster with many problems reports them all, each at its path", () => {
    const f = validateCreateClusterInput({
      ...cluster,
      name: "W",
      port: 80,
      shardCount: 3,
      securityGroups: [],
      backupSchedule: { cron: "bad" },
      user: { name: "app", password: "" },
    });
    expect(new Set(props(f))).toEqual(new Set(["name", "port", "securityGroups", "backupSchedule.cron", "user.password", "subnetAssignments"]));
    expect(formatFailures(f)).toContain("port: must be from 2000 to 50000 (got 80)");
  });

  test("instance sets: all three variants; HA needs a replica; exactly one restore source", () => {
    expect(validateCreateInstanceSetInput(set)).toEqual([]);
    expect(validateCreateInstanceSetInput({ ...set, restoreSource: { backupName: "bk" } })).toEqual([]);
    expect(validateCreateInstanceSetInput({ ...set, restoreSource: { files: ["b/f.rdb"] } })).toEqual([]);
    expect(props(validateCreateInstanceSetInput({ ...set, restoreSource: { backupName: "bk", files: ["b/f"] } }))).toEqual(["restoreSource"]);
    expect(props(validateCreateInstanceSetInput({ ...set, replicas: 1, subnetAssignments: [{ primary: { id: "a" }, replicas: [] }] }))).toEqual(["replicas"]);
    expect(
      validateCreateInstanceSetInput({ ...set, recoveryEnabled: false, replicas: 1, subnetAssignments: [{ primary: { id: "a" }, replicas: [] }] }),
    ).toEqual([]);
    expect(props(validateCreateInstanceSetInput({ ...set, replicas: 7 }))).toEqual(["replicas", "subnetAssignments"]);
  });

  test("updates: parameterGroupId never empty, an empty cron allowed, description rules", () => {
    expect(validateUpdateInput({ backupSchedule: { cron: "" }, description: "ok" }, "cluster")).toEqual([]);
    expect(props(validateUpdateInput({ parameterGroupId: "", description: "a\nb" }, "instance-set"))).toEqual(["description", "parameterGroupId"]);
    expect(props(validateUpdateInput({ backupSchedule: { cron: "0 1 * * *" } }, "instance-set"))).toEqual(["backupSchedule.cron"]);
  });

  test("add shard: replicas of the new shard are nodeCount - 1", () => {
    expect(validateAddShardInput({ nodeCount: 2, subnetAssignment: { primary: { id: "a" }, replicas: [{ id: "b" }] } }, [{ id: "a" }, { id: "b" }])).toEqual(
      [],
    );
    expect(props(validateAddShardInput({ nodeCount: 3, subnetAssignment: { primary: { id: "a" }, replicas: [{ id: "z" }] } }, [{ id: "a" }]))).toEqual([
      "subnetAssignment.replicas[0].id",
      "subnetAssignment.replicas",
    ]);
  });

  test("parameter groups: create fields; modify needs applyMode with parameters and unique keys", () => {
    expect(validateCreateParameterGroupInput({ parameterGroupId: "pg-1", name: "n" })).toEqual([]);
    expect(props(validateCreateParameterGroupInput({ parameterGroupId: "", name: "a\nb" }))).toEqual(["parameterGroupId", "name"]);
    expect(validateModifyParameterGroupInput({ description: "only" })).toEqual([]);
    expect(props(validateModifyParameterGroupInput({ parameters: { timeout: "1" } }))).toEqual(["applyMode"]);
    expect(
      props(
        validateModifyParameterGroupInput({
          applyMode: "both" as never,
          parameters: [
            { parameterKey: "a", parameterValue: "1" },
            { parameterKey: "a", parameterValue: "2" },
          ],
        }),
      ),
    ).toEqual(["applyMode", "parameters[1].parameterKey"]);
  });
});
