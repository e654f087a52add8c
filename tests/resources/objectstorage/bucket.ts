/**
 * The test fixture of Bucket (`krcloud:objectstorage:Bucket`, provider/objectstorage/bucket.ts):
 * every fact the tests that walk the types need (tests/resources/fixture.ts says what each is;
 * index.ts derives the tables from them).
 */
import fc from "fast-check";
import { arr, obj, rule, type Obj, type TypeRules } from "../../support/inputs/cross-field";
import { ObjectStorageClient } from "../../../client/objectstorage";
import { isSecret } from "../../harness/engine/state";
import { isPlainObject, type Input } from "../../support/inputs/rules";
import type { CloudKind, DriftFact, FaultRow, OutsideFact, SecretsFact, ZeroDiffSpec } from "../fixture";
import type { Entry } from "../../support/faults/sim-stack";

/** A bucket other rows of the fault matrix depend on. */
export const site = { logical: "site", token: "krcloud:objectstorage:Bucket", args: { forceDestroy: true } };

const ip = fc.oneof(
  fc.ipV4(),
  fc.ipV6(),
  fc.tuple(fc.ipV4(), fc.integer({ min: 0, max: 32 })).map(([a, b]) => `${a}/${b}`),
  fc.tuple(fc.ipV6(), fc.integer({ min: 0, max: 128 })).map(([a, b]) => `${a}/${b}`),
);

/** Metadata names and values, `n` entries, `valueLength` characters each. */
function metadataOf(n: number, valueLength: number): Obj {
  const m: Obj = {};
  for (let i = 0; i < n; i++) m[`name-${i}`] = "v".repeat(valueLength);
  return m;
}

const metadataBytes = (m: Obj) => Object.entries(m).reduce((n, [k, v]) => n + Buffer.byteLength(k) + Buffer.byteLength(String(v)), 0);

/** The service's 4096 bytes of names and values, less the 29 of krcloud's ownership marker (`krcloud-owner` and 16 hex digits). */
const METADATA_TOTAL_MAX = 4096 - 29;

/** Drops entries until names and values total at most METADATA_TOTAL_MAX bytes. */
export function keepMetadataTotal(m: unknown): void {
  if (!isPlainObject(m)) return;
  for (const k of Object.keys(m)) if (metadataBytes(m) > METADATA_TOTAL_MAX || k.startsWith("krcloud-")) delete m[k];
}

export const metadataTotalRule = rule(
  `metadata names and values total at most ${METADATA_TOTAL_MAX} bytes`,
  "metadata",
  fc.integer({ min: 8, max: 12 }).map((n) => (valid) => ({
    input: { ...valid, metadata: metadataOf(n, 512) },
    path: "metadata",
    texts: [`metadata names and values must total at most ${METADATA_TOTAL_MAX} bytes`],
  })),
);

/** A name krcloud keeps for its ownership markers, at any place among the program's names. */
export const reservedMetadataRule = rule(
  "metadata names starting with krcloud- are reserved",
  "metadata",
  fc.tuple(fc.stringMatching(/^[a-z0-9]{1,8}$/), fc.integer({ min: 0, max: 3 })).map(([suffix, n]) => (valid) => ({
    input: { ...valid, metadata: { ...metadataOf(n, 8), [`krcloud-${suffix}`]: "x" } },
    path: "metadata",
    texts: ['metadata names starting with "krcloud-" are reserved'],
  })),
);

/** Inputs check accepts, with every secret-bearing input set. */
export const valid: Input = { name: "valid-bucket", acl: { public: "read-only" }, metadata: { owner: "tests" } };

/** The rules of its inputs that tie several properties together. */
export function crossFieldRules(): TypeRules {
  return {
    values: { "acl.publicReadAllowIpList[]": ip },
    keep(i) {
      const acl = obj(i.acl);
      if (arr(acl.publicReadAllowIpList).length > 0) acl.public = "read-only";
      keepMetadataTotal(i.metadata);
    },
    rules: [
      rule(
        "publicReadAllowIpList only with public read-only",
        "acl",
        fc.tuple(fc.array(ip, { minLength: 1, maxLength: 3 }), fc.boolean()).map(([list, explicit]) => (valid) => ({
          input: { ...valid, acl: { ...(explicit ? { public: "deny" } : {}), publicReadAllowIpList: list } },
          path: "acl.publicReadAllowIpList",
          texts: ["publicReadAllowIpList only applies when public is read-only"],
        })),
      ),
      metadataTotalRule,
      reservedMetadataRule,
    ],
  };
}

/** Its row of the fault matrix. */
export const faultRow: FaultRow = {
  args: () => ({ forceDestroy: true }),
  updated: () => ({ forceDestroy: true, acl: { public: "read-only" } }),
  ops: { create: "CreateBucket", update: "UpdateBucketAcl", read: "GetBucketMeta", delete: "DeleteBucket" },
};

/** Its resources in the zero-diff suite's specs. */
export const zeroDiffSpec: ZeroDiffSpec = {
  base: ({ r }) => [
    r("bucket", "krcloud:objectstorage:Bucket", {}),
    // Query results land here: it is not empty when destroyed.
    r("results", "krcloud:objectstorage:Bucket", { forceDestroy: true }),
  ],
  varied: ({ r, tag }) => [
    r("bucket", "krcloud:objectstorage:Bucket", {
      name: `${tag}-varied-bucket`,
      type: "STANDARD",
      encryption: { type: "managed" },
      acl: { public: "read-only", publicReadAllowIpList: ["192.168.10.0/24", "10.0.0.1", "2001:db8::/32"] },
      metadata: { zeta: "last", alpha: "first", "mixed-case-value": "Value With Spaces", empty: "" },
      forceDestroy: true,
      adopt: false,
    }),
  ],
};

/** What the cloud holds for it: the bucket. */
export const cloudKinds = (e: Entry): CloudKind[] => [{ kind: "object-storage/bucket", id: e.id }];

/** The ACL each drifted bucket was given (recorded() gets only outputs). */
const driftedAcl = new Map<string, string>();

/** Metadata without the keys krcloud keeps for its ownership markers. */
function programMetadata(m: unknown): Record<string, string> {
  return Object.fromEntries(Object.entries((m as Record<string, string> | null) ?? {}).filter(([k]) => !k.startsWith("krcloud-")));
}

/** Its ACL turned around and the program's metadata removed, through the control API. */
export const drift: DriftFact = {
  recipe: {
    service: "object-storage",
    kind: "bucket",
    root: true,
    // krcloud's ownership markers (`krcloud-*` metadata) are its own, not the program's state.
    snapshot: (rec) => ({ acl: (rec.acl as { public?: string } | null)?.public ?? "deny", metadata: programMetadata(rec.metadata) }),
    async drift(control, r) {
      const rec = (await control.getResource("object-storage", "bucket", r.id!))!;
      const isPublic = (rec.acl as { public?: string } | null)?.public === "read-only";
      const hadMetadata = Object.keys(programMetadata(rec.metadata)).length > 0;
      await control.patchResource("object-storage", "bucket", r.id!, { acl: { public: isPublic ? "deny" : "read-only" }, metadata: null });
      driftedAcl.set(r.id!, isPublic ? "deny" : "read-only");
      return hadMetadata ? ["acl", "metadata"] : ["acl"];
    },
    recorded: (outs) => isSecret(outs.acl) || (outs.acl as { public?: string })?.public === driftedAcl.get(outs.name as string),
  },
};

/** A bucket with an ACL and metadata, made through the client (plain: the cloud answers every input back). */
export const outside: OutsideFact = {
  async make({ set, settings, tag, name }) {
    if (set !== "plain") return [];
    const os = new ObjectStorageClient({ settings });
    const bucket = `${tag}-outside`;
    await os.createBucket({ name: bucket });
    await os.updateBucketAcl(bucket, { public: "read-only" });
    await os.updateContainerMetadata(bucket, { team: "ops" }, []);
    return [
      {
        name: name("bucket"),
        type: "krcloud:objectstorage:Bucket",
        importId: bucket,
        properties: { name: bucket, acl: { public: "read-only" }, metadata: { team: "ops" } },
        adopt: { adopt: true },
      },
    ];
  },
};

export const secrets: SecretsFact = { none: "no secret input (a program may make its metadata secret as a whole: the drift test's vault bucket)" };
