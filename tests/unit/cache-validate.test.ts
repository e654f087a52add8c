/**
 * The cache rules (spec 02 §4, §8), one implementation each: the client's validators where the client
 * uses them too, the provider's `check` (its zod schemas) for the rest. Every failure is reported,
 * with its property path.
 */
import fc from "fast-check";
import { provider } from "../../provider/runtime";
import {
  backupCronForHour,
  containsEmoji,
  validateBackupSchedule,
  validateDescription,
  validateInstanceSetName,
  validateModifyParameterGroupInput,
  validateRestoreFiles,
  validateUpdateInput,
} from "../../client/cache";
import { clusterArgs, instanceSetArgs } from "../support/cache";
import { configuredProvider } from "../support/servers/configured";

configuredProvider();

const props = (f: { property: string }[]) => f.map((x) => x.property);

/** The failures `check` reports for a resource's program arguments. */
async function checkFailures(token: string, args: Record<string, unknown>): Promise<{ property: string; reason: string }[]> {
  return (await provider(token).check({}, { ...args, __provider: "stub", __logicalName: "res" })).failures ?? [];
}

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
  test("cluster names follow the same rule (reading: the spec states none for clusters)", async () => {
    expect(props(await checkFailures("krcloud:cache:Cluster", clusterArgs({ name: "web" })))).toEqual(["name"]);
    expect(await checkFailures("krcloud:cache:Cluster", clusterArgs({ name: "web-cache" }))).toEqual([]);
    // Every broken rule of the name is reported, each at `name`.
    expect([...new Set(props(await checkFailures("krcloud:cache:Cluster", clusterArgs({ name: "WEB" }))))]).toEqual(["name"]);
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

describe("limits (check)", () => {
  test("port 2000-50000, an integer; shards 1-12", async () => {
    for (const port of [2000, 50000, 6379]) expect(await checkFailures("krcloud:cache:Cluster", clusterArgs({ port }))).toEqual([]);
    for (const port of [1999, 50001, 6379.5, "6379"]) expect(props(await checkFailures("krcloud:cache:Cluster", clusterArgs({ port })))).toEqual(["port"]);
    const shard = { primarySubnetId: "sn-a", replicaSubnetIds: ["sn-b"] };
    expect(await checkFailures("krcloud:cache:Cluster", clusterArgs({ shards: Array(12).fill(shard) }))).toEqual([]);
    expect(props(await checkFailures("krcloud:cache:Cluster", clusterArgs({ shards: [] })))).toEqual(["shards"]);
    expect(props(await checkFailures("krcloud:cache:Cluster", clusterArgs({ shards: Array(13).fill(shard) })))).toEqual(["shards"]);
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

describe("placement (check)", () => {
  test("subnets used must be listed; every shard has the same number of replicas", async () => {
    const f = await checkFailures(
      "krcloud:cache:Cluster",
      clusterArgs({
        shards: [
          { primarySubnetId: "sn-a", replicaSubnetIds: ["zz"] },
          { primarySubnetId: "sn-b", replicaSubnetIds: [] },
        ],
      }),
    );
    // The property is the top-level input (what the engine can show the value of); the reason has the path.
    expect(props(f)).toEqual(["shards", "shards"]);
    expect(f.map((x) => x.reason.split(":")[0])).toEqual(["shards[0].replicaSubnetIds", "shards[1].replicaSubnetIds"]);
    expect(f.map((x) => x.reason).join(" | ")).toMatch(/subnet "zz" is not in subnetIds.*every shard must have the same number of replicas/);
  });
  test("an instance set's replicas: at most 5; high availability needs one", async () => {
    expect(await checkFailures("krcloud:cache:InstanceSet", instanceSetArgs())).toEqual([]);
    expect(props(await checkFailures("krcloud:cache:InstanceSet", instanceSetArgs({ replicaSubnetIds: Array(6).fill("sn-b") })))).toEqual(["replicaSubnetIds"]);
    expect(props(await checkFailures("krcloud:cache:InstanceSet", instanceSetArgs({ replicaSubnetIds: [], highAvailability: true })))).toEqual([
      "highAvailability",
    ]);
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

describe("updates and parameter changes (the client checks them too)", () => {
  test("updates: parameterGroupId never empty, an empty cron allowed, description rules", () => {
    expect(validateUpdateInput({ backupSchedule: { cron: "" }, description: "ok" }, "cluster")).toEqual([]);
    expect(props(validateUpdateInput({ parameterGroupId: "", description: "a\nb" }, "instance-set"))).toEqual(["description", "parameterGroupId"]);
    expect(props(validateUpdateInput({ backupSchedule: { cron: "0 1 * * *" } }, "instance-set"))).toEqual(["backupSchedule.cron"]);
  });

  test("parameter groups: modify needs applyMode with parameters and unique keys", () => {
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
