/** zod schemas shared by the cache resources; the rules are the client's validators (client/cache/validate.ts). */
import { z } from "zod";
import { DESCRIPTION_TAG_LENGTH, DESCRIPTION_TAG_WITH_STEP_LENGTH, markerOf, nonEmpty, splitDescription, taggedDescription, type Context } from "../core";
import type { Settings } from "../../client/core";
import { kmsEncrypted, oneOf, passwordOf } from "../kms/encrypted-input";
import { DESCRIPTION_MAX, PORT_MAX, PORT_MIN, RETENTION_MAX, RETENTION_MIN, validateDescription, validateInstanceSetName } from "../../client/cache";

/** Instance set (and, by the same rule, cluster) names: spec 02 §4.3. */
export function cacheName(what: string) {
  return z
    .string()
    .superRefine((v, ctx) => {
      for (const f of validateInstanceSetName(v, "")) ctx.addIssue({ code: "custom", message: f.reason });
    })
    .describe(
      `${what} name: 4 to 20 characters, lower-case letters, digits and \`-\`, starting with a letter, ending with a letter or digit, no \`--\`. When omitted: the logical name plus a random suffix. Changing it replaces the resource.`,
    );
}

/** Parameter group and backup names: the one rule the cache API has for both. */
export function groupOrBackupName() {
  return z.string().regex(/^[A-Za-z][A-Za-z0-9_-]{0,63}$/, "must be 1 to 64 letters, digits, `-` or `_`, starting with a letter");
}

/**
 * The description's room: the service's 100 characters, less krcloud's ownership tag (ownership.ts,
 * 18 characters), and for a cluster less the shards step its tag records while shards are added.
 */
export function userDescriptionMax(recordsShardSteps: boolean): number {
  return DESCRIPTION_MAX - (recordsShardSteps ? DESCRIPTION_TAG_WITH_STEP_LENGTH : DESCRIPTION_TAG_LENGTH);
}

/** `recordsShardSteps`: a cluster, whose tag also records a shards step (cluster.ts). */
export function description(recordsShardSteps = false) {
  const max = userDescriptionMax(recordsShardSteps);
  const room = recordsShardSteps ? DESCRIPTION_TAG_WITH_STEP_LENGTH : DESCRIPTION_TAG_LENGTH;
  return z
    .string()
    .superRefine((v, ctx) => {
      for (const f of validateDescription(v, "")) ctx.addIssue({ code: "custom", message: f.reason });
      const len = [...v].length;
      if (len > max)
        ctx.addIssue({
          code: "custom",
          message: `must be at most ${max} characters (got ${len}): the service takes ${DESCRIPTION_MAX}, and krcloud keeps ${room} for its ownership tag`,
        });
    })
    .optional()
    .describe(
      `Description, at most ${max} characters, no line breaks or emoji. Changed in place. The service shows it followed by krcloud's ownership tag \`[k:…]\`, which krcloud never reports back.`,
    );
}

/** The description a request sends: the program's text and this resource's ownership tag (with a pending step, a cluster's shard being added). */
export function requestDescription(ctx: Pick<Context, "createKey">, text: string | undefined, pending?: string): string | undefined {
  return taggedDescription(text, markerOf(ctx.createKey), pending);
}

/** The program's text of a description the service shows (the ownership tag removed). */
export function shownDescription(shown: string | undefined): string | undefined {
  return splitDescription(shown).text;
}

export function port() {
  return z
    .number()
    .int("must be a whole number")
    .min(PORT_MIN, `must be from ${PORT_MIN} to ${PORT_MAX}`)
    .max(PORT_MAX, `must be from ${PORT_MIN} to ${PORT_MAX}`)
    .default(6379)
    .describe(`Port, ${PORT_MIN} to ${PORT_MAX} (default 6379). Changing it replaces the resource.`);
}

export function user() {
  return z
    .strictObject({
      name: nonEmpty().describe("Database user name."),
      password: nonEmpty()
        .optional()
        .describe("The user's password, already encrypted or hashed: the cache service accepts no plain password here. Secret. Or give `passwordCiphertext`."),
      passwordCiphertext: kmsEncrypted("The user's password").optional(),
    })
    .superRefine((u, ctx) => oneOf(ctx, [], u.password, u.passwordCiphertext, ["password", "passwordCiphertext"], true))
    .optional()
    .describe("A database user (authentication). Changing it replaces the resource.");
}

/** The user as the create request sends it: the password decrypted when it was given as a KMS ciphertext. */
export async function userForRequest(
  settings: Settings,
  u: z.infer<ReturnType<typeof user>>,
  what: string,
): Promise<{ name: string; password: string } | undefined> {
  if (u === undefined) return undefined;
  return { name: u.name, password: (await passwordOf(settings, u.password, u.passwordCiphertext, `the password of the user of ${what}`)) ?? "" };
}

export function keepAutomaticBackups() {
  return z
    .boolean()
    .default(true)
    .describe(
      "On delete: keep automatic backups until they expire (true, the default) or delete them with the resource. Read at delete time only; never read back.",
    );
}

export const retentionDays = () =>
  z
    .number()
    .int("must be a whole number of days")
    .min(RETENTION_MIN, `must be from ${RETENTION_MIN} to ${RETENTION_MAX} days`)
    .max(RETENTION_MAX, `must be from ${RETENTION_MIN} to ${RETENTION_MAX} days`);

export function adoptInput(what: string) {
  return z
    .boolean()
    .default(false)
    .describe(
      `If ${what} with this name already exists, manage it instead of creating one (its replace-on properties must match; the rest is updated in place).`,
    );
}
