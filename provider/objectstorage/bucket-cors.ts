/**
 * krcloud:objectstorage:BucketCors — a bucket's whole CORS policy, as an ordered list of rules
 * (the service evaluates them in order). Spec: 01-object-storage.md sections 2.4 and 4.1.
 */
import { z } from "zod";
import { isNotFound } from "../../client/core";
import { resourceClass } from "../core";
import { bucketDocument, documentInputs, inPriorOrder } from "./bucket-document";
import type { BucketCorsArgs } from "./args";

export const CORS_METHODS = ["PUT", "POST", "GET", "DELETE"] as const;

/** Section 2.4: protocol included (http or https), at most one `*`, up to 200 characters, optional port. */
function origin() {
  return z
    .string()
    .max(200, "origins must be at most 200 characters")
    .regex(/^https?:\/\/[^\s/]+$/, "origins must include the protocol (http:// or https://) and no path")
    .regex(/^[\x21-\x7e]+$/, "origins must be printable ASCII (write international domain names in punycode)")
    .refine((o) => (o.match(/\*/g) ?? []).length <= 1, "origins may contain at most one '*' wildcard");
}

/** An HTTP header name (RFC 9110 token) or `*`. */
function headerName() {
  return z.string().regex(/^(\*|[!#$%&'*+.^_`|~0-9A-Za-z-]+)$/, "must be an HTTP header name or *");
}

export function corsRule() {
  return z.strictObject({
    allowedOrigins: z
      .array(origin())
      .min(1, "at least one origin is required")
      .describe(
        "Origins with protocol, e.g. `https://*.example.com` or `http://localhost:8080`. Note: an origin written with an explicit :80/:443 does not match a browser Origin without the port.",
      ),
    allowedMethods: z.array(z.enum(CORS_METHODS)).min(1, "at least one method is required").describe("Methods: PUT, POST, GET, DELETE."),
    allowedHeaders: z.array(headerName()).optional().describe("Request headers allowed in a preflight (`*` for any)."),
    exposeHeaders: z.array(headerName()).optional().describe("Response headers exposed to the browser."),
    maxAgeSeconds: z
      .number()
      .int("must be a whole number of seconds")
      .min(0, "must be 0 or more seconds")
      .optional()
      .describe("Preflight cache lifetime in seconds; when omitted, preflight results are not cached."),
  });
}
export type CorsRule = z.infer<ReturnType<typeof corsRule>>;

export function bucketCorsInputs() {
  const atMost10 = (rules: z.ZodArray<ReturnType<typeof corsRule>>) => rules.max(10, "at most 10 rules per bucket (a limit of object storage)");
  return documentInputs("CORS policy", "policy", corsRule(), atMost10, "The whole CORS policy, in order.");
}

export const bucketCors = bucketDocument("krcloud:objectstorage:BucketCors", bucketCorsInputs, {
  description: "The CORS policy of a bucket: an ordered list of at most 10 rules. Deleting it leaves the bucket with no CORS policy.",
  noun: "CORS policy",
  // An existing policy equal to the program's is taken over without adopt: nothing would change.
  claimKey: "krcloud-cors-owner",
  listed: { nouns: "CORS policies", has: async (c, bucket) => (await c.getCors(bucket)).length > 0, nameSuffix: "-cors" },

  // An empty header list means none, and read reports it as absent (client/objectstorage/wire/bucket-cors.ts):
  // record it that way, or every refresh would show a diff.
  derive: [
    {
      from: ["rules"],
      to: "rules",
      compute: (inputs) =>
        inputs.rules.map(({ allowedHeaders, exposeHeaders, ...r }) => ({
          ...r,
          ...(allowedHeaders?.length ? { allowedHeaders } : {}),
          ...(exposeHeaders?.length ? { exposeHeaders } : {}),
        })),
    },
  ],

  // A missing bucket answers 404 (NotFound): the policy is gone with it.
  get: (c, bucket) => c.getCors(bucket).catch((e: unknown) => (isNotFound(e) ? [] : Promise.reject(e))),
  put: (c, bucket, rules) => c.putCors(bucket, rules),
  remove: (c, bucket) => c.deleteCors(bucket),
  align: alignCorsRules,
});

/**
 * Rules stay in the service's order (it evaluates them in order). Within a rule, origins, methods
 * and headers are sets to the service, which may reorder them or change the case of methods and
 * header names: when a list holds the same items as the one recorded, the recorded one is kept.
 */
export function alignCorsRules(read: CorsRule[], prior: readonly CorsRule[] | undefined): CorsRule[] {
  return read.map((r, i) => {
    const p = prior?.[i];
    if (!p) return r;
    const lower = (s: string) => s.toLowerCase();
    const out: CorsRule = {
      ...r,
      allowedOrigins: inPriorOrder(r.allowedOrigins, p.allowedOrigins),
      allowedMethods: inPriorOrder(r.allowedMethods, p.allowedMethods, lower),
    };
    if (r.allowedHeaders) out.allowedHeaders = inPriorOrder(r.allowedHeaders, p.allowedHeaders, lower);
    if (r.exposeHeaders) out.exposeHeaders = inPriorOrder(r.exposeHeaders, p.exposeHeaders, lower);
    return out;
  });
}

// ---------------------------------------------------------------------------------------------
// The class users instantiate

// The args type, with a doc comment on every property, is generated from schema.json (tools/gen-args.ts).
export type { BucketCorsArgs } from "./args";
/** The whole CORS policy of a bucket, an ordered list of at most 10 rules. */
export type BucketCorsInputs = z.infer<ReturnType<typeof bucketCorsInputs>>;
/** The outputs are the inputs, as the service echoes them. */
export type BucketCorsOutputs = BucketCorsInputs;
export const BucketCors = resourceClass<BucketCorsArgs, BucketCorsOutputs>(bucketCors);
export type BucketCors = InstanceType<typeof BucketCors>;
