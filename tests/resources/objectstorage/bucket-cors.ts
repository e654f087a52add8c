/**
 * The test fixture of BucketCors (`krcloud:objectstorage:BucketCors`,
 * provider/objectstorage/bucket-cors.ts): every fact the tests that walk the types need
 * (tests/resources/fixture.ts says what each is; index.ts derives the tables from them).
 */
import fc from "fast-check";
import type { TypeRules } from "../../support/inputs/cross-field";
import type { Input } from "../../support/inputs/rules";
import { ObjectStorageClient } from "../../../client/objectstorage";
import { isSecret } from "../../harness/engine/state";
import type { Entry } from "../../support/faults/sim-stack";
import type { CloudKind, DriftFact, DriftRecipe, FaultRow, OutsideFact, SecretsFact, ZeroDiffSpec } from "../fixture";
import { site } from "./bucket";

/** Inputs check accepts, with every secret-bearing input set. */
export const valid: Input = {
  bucket: "valid-bucket",
  rules: [{ allowedOrigins: ["https://www.example.com"], allowedMethods: ["GET"], maxAgeSeconds: 3600 }],
};

/** The rules of its inputs that tie several properties together. */
export function crossFieldRules(): TypeRules {
  return {
    values: {
      "rules[].allowedOrigins[]": fc
        .tuple(fc.constantFrom("http", "https"), fc.boolean(), fc.domain(), fc.option(fc.integer({ min: 1, max: 65535 })))
        .map(([scheme, wildcard, domain, port]) => `${scheme}://${wildcard ? "*." : ""}${domain}${port === null ? "" : `:${port}`}`),
    },
    rules: [],
  };
}

/** Its row of the fault matrix. */
export const faultRow: FaultRow = {
  deps: () => [site],
  args: (_p, s) => ({ bucket: s.id("site"), rules: [{ allowedOrigins: ["https://www.example.com"], allowedMethods: ["GET"] }] }),
  // The same policy on the other stack's bucket: identical, so only the claim tells them apart.
  collides: (_p, theirs) => ({ bucket: theirs.id("site"), rules: [{ allowedOrigins: ["https://www.example.com"], allowedMethods: ["GET"] }] }),
  updated: (_p, s) => ({
    bucket: s.id("site"),
    rules: [{ allowedOrigins: ["https://www.example.com"], allowedMethods: ["GET", "PUT"], maxAgeSeconds: 600 }],
  }),
  // The spec has no delete: an empty list is the removal.
  ops: { create: "PutBucketCors", update: "PutBucketCors", read: "GetBucketCors", delete: "PutBucketCors" },
};

/** Its resources in the zero-diff suite's specs. */
export const zeroDiffSpec: ZeroDiffSpec = {
  base: ({ r, ref }) => [
    r("cors", "krcloud:objectstorage:BucketCors", {
      bucket: ref("bucket", "name"),
      rules: [{ allowedOrigins: ["https://www.example.com"], allowedMethods: ["GET"] }],
    }),
  ],
  varied: ({ r, ref }) => [
    r("cors", "krcloud:objectstorage:BucketCors", {
      bucket: ref("bucket", "name"),
      rules: [
        {
          allowedOrigins: ["https://b.example.com", "http://localhost:8080", "https://*.example.org"],
          allowedMethods: ["PUT", "GET", "DELETE", "POST"],
          allowedHeaders: ["X-Custom-Header", "content-type"],
          exposeHeaders: [],
          maxAgeSeconds: 0,
        },
        {
          allowedOrigins: ["https://second.example.com"],
          allowedMethods: ["GET"],
          allowedHeaders: [],
          exposeHeaders: ["ETag", "X-Object-Meta-Owner"],
          maxAgeSeconds: 86400,
        },
      ],
      adopt: false,
    }),
  ],
};

/** What the cloud holds for it: the bucket's CORS policy (its id is the bucket's name). */
export const cloudKinds = (e: Entry): CloudKind[] => [{ kind: "object-storage/bucket-cors", id: e.id }];

const DRIFT_ORIGIN = "https://drift.invalid";

/**
 * The rules of a document of a bucket (`kind` in the control API: its CORS policy, its lifecycle
 * configuration; its id is the bucket's name) replaced by `patch` through the control API.
 */
export function bucketRulesDrift(
  kind: string,
  snapshot: DriftRecipe["snapshot"],
  patch: Record<string, unknown>,
  recorded: DriftRecipe["recorded"],
): DriftFact {
  return {
    recipe: {
      service: "object-storage",
      kind,
      snapshot,
      async drift(control, r) {
        await control.patchResource("object-storage", kind, r.id!, patch);
        return ["rules"];
      },
      recorded,
    },
  };
}

/** Its rules replaced by one for another origin, through the control API. */
export const drift = bucketRulesDrift(
  "bucket-cors",
  (rec) => rec.cors,
  { cors: [{ allowed_origins: [DRIFT_ORIGIN], allowed_methods: ["PUT"] }] },
  (outs) => isSecret(outs.rules) || JSON.stringify(outs.rules).includes(DRIFT_ORIGIN),
);

/** A CORS policy set through the client on the stack's results bucket (the bucket is the stack's; its policy is not). */
export const outside: OutsideFact = {
  async make({ set, settings, stack, name }) {
    if (set !== "plain") return [];
    const bucket = stack.resultsBucket;
    const rules = [{ allowedOrigins: ["https://outside.example.com"], allowedMethods: ["GET" as const, "PUT" as const], maxAgeSeconds: 600 }];
    await new ObjectStorageClient({ settings }).putCors(bucket, rules);
    return [{ name: name("cors"), type: "krcloud:objectstorage:BucketCors", importId: bucket, properties: { bucket, rules }, adopt: { adopt: true } }];
  },
};

export const secrets: SecretsFact = { none: "no secret input" };
