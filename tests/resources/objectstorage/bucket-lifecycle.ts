/**
 * The test fixture of BucketLifecycle (`krcloud:objectstorage:BucketLifecycle`,
 * provider/objectstorage/bucket-lifecycle.ts): every fact the tests that walk the types need
 * (tests/resources/fixture.ts says what each is; index.ts derives the tables from them).
 */
import fc from "fast-check";
import { arr, drop, obj, rule, serviceRules, type TypeRules } from "../../support/inputs/cross-field";
import type { Input } from "../../support/inputs/rules";
import { ObjectStorageClient } from "../../../client/objectstorage";
import { isSecret } from "../../harness/engine/state";
import type { Entry } from "../../support/faults/sim-stack";
import type { CloudKind, FaultRow, OutsideFact, SecretsFact, ZeroDiffSpec } from "../fixture";
import { site } from "./bucket";
import { bucketRulesDrift } from "./bucket-cors";

/** Inputs check accepts, with every secret-bearing input set. */
export const valid: Input = { bucket: "valid-bucket", rules: [{ id: "expire-logs", prefix: "logs/", expirationDays: 30 }] };

/** The rules of its inputs that tie several properties together. */
export function crossFieldRules(): TypeRules {
  return {
    values: {
      "rules[].expirationDate": fc
        .date({ min: new Date(Date.UTC(1970, 0, 1)), max: new Date(Date.UTC(9999, 11, 31)), noInvalidDate: true })
        .map((d) => new Date(Math.floor(d.getTime() / 1000) * 1000).toISOString()),
    },
    keep(i) {
      const seen = new Set<unknown>();
      for (const r of arr(i.rules).map(obj)) {
        if (r.expirationDays !== undefined && r.expirationDate !== undefined) delete r.expirationDate;
        if (r.expirationDays === undefined && r.expirationDate === undefined) r.expirationDays = 30;
        if (r.id !== undefined && seen.has(r.id)) delete r.id;
        seen.add(r.id);
      }
    },
    rules: [
      ...serviceRules(
        "a rule's prefix and id are text XML 1.0 can carry",
        fc.tuple(fc.constantFrom("prefix", "id"), fc.constantFrom("\u0000", "\u0008", "\u001b", "\uFFFF", "\uD800"), fc.nat()),
        ([key, bad, k]) =>
          (valid) => {
            const rules = arr(valid.rules).map(obj);
            const i = k % rules.length;
            rules[i]![key] = `logs${bad}/`;
            return { input: valid, path: `rules[${i}].${key}`, texts: ["must not contain characters XML 1.0 cannot carry"] };
          },
      ),
      ...serviceRules(
        "a rule id is at most 255 characters as the client and the service count them (UTF-16 code units)",
        fc.tuple(fc.integer({ min: 128, max: 255 }), fc.nat()),
        ([n, k]) =>
          (valid) => {
            const rules = arr(valid.rules).map(obj);
            const i = k % rules.length;
            rules[i]!.id = "\u{1F600}".repeat(n);
            return { input: valid, path: `rules[${i}].id`, texts: ["rule ids are at most 255 characters"] };
          },
      ),
      rule(
        "a rule expires by exactly one of expirationDays and expirationDate",
        "rules[]",
        fc.tuple(fc.nat(), fc.boolean()).map(([k, both]) => (valid) => {
          const rules = arr(valid.rules).map(obj);
          const i = k % rules.length;
          const r = rules[i]!;
          if (both) Object.assign(r, { expirationDays: 7, expirationDate: "2030-01-01T00:00:00.000Z" });
          else drop(r, "expirationDays", "expirationDate");
          return { input: valid, path: `rules[${i}].expirationDays`, texts: ["exactly one of expirationDays and expirationDate must be set"] };
        }),
      ),
      rule(
        "rule ids are unique",
        "rules",
        fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/).map((id) => (valid) => {
          const rules = [...arr(valid.rules).map(obj), { prefix: "", expirationDays: 1 }];
          rules[0]!.id = id;
          rules[rules.length - 1]!.id = id;
          return { input: { ...valid, rules }, path: `rules[${rules.length - 1}].id`, texts: [`duplicate rule id "${id}"`] };
        }),
      ),
    ],
  };
}

/** Its row of the fault matrix. */
export const faultRow: FaultRow = {
  deps: () => [site],
  args: (_p, s) => ({ bucket: s.id("site"), rules: [{ id: "expire-logs", prefix: "logs/", expirationDays: 30 }] }),
  collides: (_p, theirs) => ({ bucket: theirs.id("site"), rules: [{ id: "expire-logs", prefix: "logs/", expirationDays: 30 }] }),
  updated: (_p, s) => ({ bucket: s.id("site"), rules: [{ id: "expire-logs", prefix: "logs/", expirationDays: 7 }] }),
  ops: {
    create: "PutBucketLifecycleConfiguration",
    update: "PutBucketLifecycleConfiguration",
    read: "GetBucketLifecycleConfiguration",
    delete: "DeleteBucketLifecycleConfiguration",
  },
};

/** Its resources in the zero-diff suite's specs. */
export const zeroDiffSpec: ZeroDiffSpec = {
  base: ({ r, ref }) => [
    r("lifecycle", "krcloud:objectstorage:BucketLifecycle", {
      bucket: ref("bucket", "name"),
      rules: [{ id: "expire-logs", prefix: "logs/", expirationDays: 30 }],
    }),
  ],
  varied: ({ r, ref }) => [
    r("lifecycle", "krcloud:objectstorage:BucketLifecycle", {
      bucket: ref("bucket", "name"),
      rules: [
        { prefix: "", status: "Disabled", expirationDate: "2031-01-01T00:00:00.000Z" },
        { id: "임시-ünï", prefix: "tmp/ünï/", status: "Enabled", expirationDays: 1 },
        { id: "logs", prefix: "logs/", expirationDays: 365 },
      ],
      adopt: false,
    }),
  ],
};

/** What the cloud holds for it: the bucket's lifecycle configuration (its id is the bucket's name). */
export const cloudKinds = (e: Entry): CloudKind[] => [{ kind: "object-storage/bucket-lifecycle", id: e.id }];

const DRIFT_LIFECYCLE =
  "<LifecycleConfiguration><Rule><ID>drift</ID><Prefix>drift/</Prefix><Status>Disabled</Status><Expiration><Days>1</Days></Expiration></Rule></LifecycleConfiguration>";

/** Its rules replaced by one disabled rule for `drift/`, through the control API. */
export const drift = bucketRulesDrift(
  "bucket-lifecycle",
  (rec) => rec.lifecycle,
  { lifecycle: DRIFT_LIFECYCLE },
  (outs) => isSecret(outs.rules) || (outs.rules as { prefix?: string }[])?.[0]?.prefix === "drift/",
);

/** A lifecycle configuration set through the client on the stack's results bucket. */
export const outside: OutsideFact = {
  async make({ set, settings, stack, name }) {
    if (set !== "plain") return [];
    const bucket = stack.resultsBucket;
    await new ObjectStorageClient({ settings }).putLifecycle(bucket, [{ id: "outside", prefix: "old/", status: "Enabled", days: 7 }]);
    return [
      {
        name: name("lifecycle"),
        type: "krcloud:objectstorage:BucketLifecycle",
        importId: bucket,
        properties: { bucket, rules: [{ id: "outside", prefix: "old/", status: "Enabled", expirationDays: 7 }] },
        adopt: { adopt: true },
      },
    ];
  },
};

export const secrets: SecretsFact = { none: "no secret input" };
