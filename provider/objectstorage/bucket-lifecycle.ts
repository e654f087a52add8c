/**
 * krcloud:objectstorage:BucketLifecycle — a bucket's whole lifecycle (object expiry) configuration.
 * A new configuration overwrites the previous one, so this resource always sends every rule.
 * Seed: 01-object-storage.md sections 2.3 and 4.1.
 */
import { z } from "zod";
import { rethrowAs } from "../../sdk/core";
import { LIFECYCLE_DATE } from "../../sdk/objectstorage";
import type { ResourceDefinition } from "../core";
import { objectStorage } from "./client";
import { bucketName } from "./validation";

export { LIFECYCLE_DATE };

export function lifecycleRule() {
  return z
    .object({
      id: z.string().min(1).max(255, "rule ids are at most 255 characters").optional().describe("Rule ID, unique within the configuration, up to 255 characters."),
      prefix: z.string().describe("Prefix of the object names the rule applies to (`logs/`); empty for every object."),
      status: z.enum(["Enabled", "Disabled"]).default("Enabled").describe("`Enabled` or `Disabled`."),
      expirationDays: z.number().int("must be a whole number of days").positive("must be greater than 0").optional().describe("Delete objects this many days after creation. Exactly one of expirationDays and expirationDate."),
      expirationDate: z
        .string()
        .regex(LIFECYCLE_DATE, "must be exactly YYYY-MM-DDThh:mm:ss.000Z")
        // Date.parse rolls 2030-02-30 over to March 2 and accepts T24:00; the service refuses both.
        .refine((d) => !Number.isNaN(Date.parse(d)) && new Date(d).toISOString() === d, "must be a valid date")
        .optional()
        .describe("Delete objects on this date, `YYYY-MM-DDThh:mm:ss.000Z` exactly. Exactly one of expirationDays and expirationDate."),
    })
    .strict()
    .refine((r) => (r.expirationDays === undefined) !== (r.expirationDate === undefined), {
      message: "exactly one of expirationDays and expirationDate must be set",
      path: ["expirationDays"],
    });
}

export function bucketLifecycleInputs() {
  return z
    .object({
      bucket: bucketName().describe("The bucket. Changing it replaces the configuration."),
      rules: z
        .array(lifecycleRule())
        .min(1, "at least one rule is required")
        .superRefine((rules, ctx) => {
          const seen = new Set<string>();
          rules.forEach((r, i) => {
            if (r.id === undefined) return;
            if (seen.has(r.id)) ctx.addIssue({ code: "custom", message: `duplicate rule id "${r.id}"`, path: [i, "id"] });
            seen.add(r.id);
          });
        })
        .describe("The whole lifecycle configuration. Rules are evaluated once a day at 00:00."),
      adopt: z.boolean().default(false).describe("If the bucket already has a lifecycle configuration, take it over instead of failing."),
    })
    .strict();
}
export type BucketLifecycleInputs = z.infer<ReturnType<typeof bucketLifecycleInputs>>;
export const bucketLifecycleOutputs = bucketLifecycleInputs;
export type BucketLifecycleOutputs = BucketLifecycleInputs;

export const bucketLifecycle: ResourceDefinition<BucketLifecycleInputs, BucketLifecycleOutputs> = {
  token: "krcloud:objectstorage:BucketLifecycle",
  description: "The lifecycle (object expiry) configuration of a bucket. Deleting it removes the configuration.",
  inputs: bucketLifecycleInputs,
  outputs: bucketLifecycleOutputs,
  replaceOn: ["bucket"],
  localInputs: ["adopt"],
  describe: (id) => `lifecycle configuration of bucket "${id}"`,

  async create(ctx, inputs) {
    const c = objectStorage(ctx);
    const existing = await c.getLifecycle(inputs.bucket).catch(rethrowAs(`reading the lifecycle configuration of bucket "${inputs.bucket}"`));
    if (existing && existing.length > 0 && !inputs.adopt) {
      throw new Error(`creating the lifecycle configuration of bucket "${inputs.bucket}": the bucket already has one (set adopt: true to replace and manage it)`);
    }
    await put(ctx, inputs.bucket, inputs.rules);
    return { id: inputs.bucket, outs: { ...inputs } };
  },

  async read(ctx, id, olds) {
    const rules = await objectStorage(ctx)
      .getLifecycle(id)
      .catch(rethrowAs(`reading the lifecycle configuration of bucket "${id}"`));
    if (!rules || rules.length === 0) return undefined;
    return { bucket: id, rules: rules.map(flattenRule), adopt: olds.adopt ?? false };
  },

  async update(ctx, id, _current, news) {
    await put(ctx, id, news.rules);
    return { ...news };
  },

  async delete(ctx, id) {
    await objectStorage(ctx)
      .deleteLifecycle(id)
      .catch(rethrowAs(`deleting the lifecycle configuration of bucket "${id}"`));
  },
};

type Rule = BucketLifecycleInputs["rules"][number];

async function put(ctx: Parameters<typeof objectStorage>[0], bucket: string, rules: Rule[]): Promise<void> {
  await objectStorage(ctx)
    .putLifecycle(bucket, rules.map(expandRule))
    .catch(rethrowAs(`setting the lifecycle configuration of bucket "${bucket}"`));
}

function expandRule(r: Rule) {
  return { id: r.id, prefix: r.prefix, status: r.status, days: r.expirationDays, date: r.expirationDate };
}

function flattenRule(r: { id?: string; prefix: string; status: "Enabled" | "Disabled"; days?: number; date?: string }): Rule {
  return { id: r.id, prefix: r.prefix, status: r.status, expirationDays: r.days, expirationDate: r.date };
}
