/**
 * krcloud:objectstorage:BucketLifecycle — a bucket's whole lifecycle (object expiry) configuration.
 * A new configuration overwrites the previous one, so this resource always sends every rule.
 * Spec: 01-object-storage.md sections 2.3 and 4.1.
 */
import { z } from "zod";
import { isXmlRepresentable, LIFECYCLE_DATE, MAX_RULE_ID_LENGTH } from "../../client/objectstorage";
import { resourceClass } from "../core";
import { bucketDocument, documentInputs } from "./bucket-document";
import type { BucketLifecycleArgs } from "./args";

export { LIFECYCLE_DATE };

/** Text the configuration's XML can carry: XML 1.0 has no way to write most control characters (tab, CR and LF it has). */
function xmlText() {
  return z
    .string()
    .refine(
      isXmlRepresentable,
      "must not contain characters XML 1.0 cannot carry (control characters other than tab, CR and LF, U+FFFE, U+FFFF, lone surrogates)",
    );
}

export function lifecycleRule() {
  return z
    .strictObject({
      id: xmlText()
        .min(1)
        // As the client and the local cloud count (UTF-16 code units); zod's max counts code points.
        .refine(
          (id) => id.length <= MAX_RULE_ID_LENGTH,
          `rule ids are at most ${MAX_RULE_ID_LENGTH} characters (one beyond the BMP, such as an emoji, counts as two)`,
        )
        .optional()
        .describe("Rule ID, unique within the configuration, up to 255 characters."),
      prefix: xmlText().describe("Prefix of the object names the rule applies to (`logs/`); empty for every object."),
      status: z.enum(["Enabled", "Disabled"]).default("Enabled").describe("`Enabled` or `Disabled`."),
      expirationDays: z
        .number()
        .int("must be a whole number of days")
        .positive("must be greater than 0")
        .optional()
        .describe("Delete objects this many days after creation. Exactly one of expirationDays and expirationDate."),
      expirationDate: z
        .string()
        .regex(LIFECYCLE_DATE, "must be exactly YYYY-MM-DDThh:mm:ss.000Z")
        // Date.parse rolls 2030-02-30 over to March 2 and accepts T24:00; the service refuses both.
        .refine((d) => !Number.isNaN(Date.parse(d)) && new Date(d).toISOString() === d, "must be a valid date")
        .optional()
        .describe("Delete objects on this date, `YYYY-MM-DDThh:mm:ss.000Z` exactly. Exactly one of expirationDays and expirationDate."),
    })
    .refine((r) => (r.expirationDays === undefined) !== (r.expirationDate === undefined), {
      message: "exactly one of expirationDays and expirationDate must be set",
      path: ["expirationDays"],
    });
}
export type LifecycleRule = z.infer<ReturnType<typeof lifecycleRule>>;

export function bucketLifecycleInputs() {
  return documentInputs(
    "lifecycle configuration",
    "configuration",
    lifecycleRule(),
    (rules) =>
      rules.superRefine((rules, ctx) => {
        const seen = new Set<string>();
        rules.forEach((r, i) => {
          if (r.id === undefined) return;
          if (seen.has(r.id)) ctx.addIssue({ code: "custom", message: `duplicate rule id "${r.id}"`, path: [i, "id"] });
          seen.add(r.id);
        });
      }),
    "The whole lifecycle configuration. Rules are evaluated once a day at 00:00.",
  );
}
export type BucketLifecycleInputs = z.infer<ReturnType<typeof bucketLifecycleInputs>>;
/** The outputs are the inputs, as the service echoes them. */
export type BucketLifecycleOutputs = BucketLifecycleInputs;

export const bucketLifecycle = bucketDocument("krcloud:objectstorage:BucketLifecycle", bucketLifecycleInputs, {
  description: "The lifecycle (object expiry) configuration of a bucket. Deleting it removes the configuration.",
  noun: "lifecycle configuration",
  existing: "one",
  claimKey: "krcloud-lifecycle-owner",
  listed: { nouns: "lifecycle configurations", has: async (c, bucket) => (await c.getLifecycle(bucket)) !== undefined, nameSuffix: "-lifecycle" },
  get: async (c, bucket) => ((await c.getLifecycle(bucket)) ?? []).map(flattenRule),
  put: async (c, bucket, rules) => (await c.putLifecycle(bucket, rules.map(expandRule))).map(flattenRule),
  remove: async (c, bucket) => {
    await c.deleteLifecycle(bucket);
  },
  align: alignLifecycleRules,
});

/**
 * The service treats the rules as a set and may answer them in another order, give a rule without
 * an ID a generated one, and write a date in another ISO 8601 shape. Against the rules recorded
 * before: each recorded rule is matched (by ID, or by content when it had none), a generated ID is
 * dropped, and the recorded order is kept; rules the service added come last. Dates are written
 * back in the spec's `.000Z` shape whatever the service sent.
 */
export function alignLifecycleRules(read: LifecycleRule[], prior: readonly LifecycleRule[] | undefined): LifecycleRule[] {
  const rules = read.map((r) => (r.expirationDate === undefined ? r : { ...r, expirationDate: normalizeDate(r.expirationDate) }));
  if (!prior) return rules;
  const content = (r: LifecycleRule) => JSON.stringify([r.prefix, r.status, r.expirationDays ?? null, r.expirationDate ?? null]);
  const used = new Set<number>();
  const out: LifecycleRule[] = [];
  for (const p of prior) {
    const i = rules.findIndex((r, j) => !used.has(j) && (p.id !== undefined ? r.id === p.id : content(r) === content(p)));
    if (i < 0) continue;
    used.add(i);
    const { id, ...rest } = rules[i]!;
    out.push(p.id === undefined ? rest : { id, ...rest });
  }
  rules.forEach((r, j) => used.has(j) || out.push(r));
  return out;
}

function normalizeDate(d: string): string {
  const t = Date.parse(d);
  return Number.isNaN(t) ? d : new Date(t).toISOString();
}

function expandRule(r: LifecycleRule) {
  return { id: r.id, prefix: r.prefix, status: r.status, days: r.expirationDays, date: r.expirationDate };
}

function flattenRule(r: { id?: string; prefix: string; status: "Enabled" | "Disabled"; days?: number; date?: string }): LifecycleRule {
  return { id: r.id, prefix: r.prefix, status: r.status, expirationDays: r.days, expirationDate: r.date };
}

// ---------------------------------------------------------------------------------------------
// The class users instantiate

// The args type, with a doc comment on every property, is generated from schema.json (tools/gen-args.ts).
export type { BucketLifecycleArgs } from "./args";
/** The whole lifecycle (object expiry) configuration of a bucket. */
export const BucketLifecycle = resourceClass<BucketLifecycleArgs, BucketLifecycleOutputs>(bucketLifecycle);
export type BucketLifecycle = InstanceType<typeof BucketLifecycle>;
