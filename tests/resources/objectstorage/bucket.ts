/**
 * The test fixture of Bucket (`krcloud:objectstorage:Bucket`, provider/objectstorage/bucket.ts):
 * its valid inputs, the cross-field rules of its inputs, its row of the fault matrix and its
 * resources in the zero-diff specs (tests/resources/fixture.ts says what each is; index.ts derives
 * the tables from them).
 */
import fc from "fast-check";
import { arr, obj, rule, type Obj, type TypeRules } from "../../support/inputs/cross-field";
import { isPlainObject, type Input } from "../../support/inputs/rules";
import type { FaultRow, ZeroDiffSpec } from "../fixture";

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
  service: "object-storage",
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
