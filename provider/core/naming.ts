import { createHash, randomBytes } from "node:crypto";

export interface AutoNameRule {
  /** The input property holding the physical name. */
  property: string;
  minLength: number;
  maxLength: number;
  /** Lower-case the logical name (bucket and instance set names must be lower case). */
  lowerCase?: boolean;
  /** Characters allowed besides letters and digits; others become the separator. Default: the separator. */
  extraChars?: string;
  /** Joins the logical name and the suffix and replaces disallowed characters; default '-'. */
  separator?: string;
  /** Random suffix length (hex characters). */
  suffixLength?: number;
}

/**
 * The physical name for an omitted name: logical name + '-' + a hex suffix (derived from the create
 * key, see `hexFrom`), cleaned up to the spec's character rules and cut so the whole fits
 * `maxLength`; padded when too short.
 */
export function autoName(logical: string, rule: AutoNameRule, random: (n: number) => string = randomHex): string {
  const suffixLen = rule.suffixLength ?? 7;
  let base = rule.lowerCase ? logical.toLowerCase() : logical;
  const sep = rule.separator ?? "-";
  const escape = (t: string) => t.replace(/[\\\]^-]/g, "\\$&");
  const extra = escape(rule.extraChars ?? sep);
  base = base
    .replace(new RegExp(`[^A-Za-z0-9${extra}]`, "g"), sep)
    .replace(new RegExp(`[${escape(sep)}]+`, "g"), sep)
    .replace(/^[^A-Za-z0-9]+/, "");
  const room = rule.maxLength - suffixLen - 1;
  base = base.slice(0, Math.max(0, room)).replace(/[^A-Za-z0-9]+$/, "");
  if (base && !/^[A-Za-z]/.test(base)) base = `r${base}`.slice(0, Math.max(0, room));
  let name = base ? `${base}${sep}${random(suffixLen)}` : `r${random(suffixLen)}`;
  while (name.length < rule.minLength) name += random(1);
  return name.slice(0, rule.maxLength);
}

function randomHex(n: number): string {
  return randomBytes(Math.ceil(n / 2))
    .toString("hex")
    .slice(0, n);
}

/**
 * Hex digits derived from `key` alone (SHA-256, extended by a counter): the "random" source of a
 * deterministic name, so that a create retried after a crash or a lost answer produces the same
 * name and meets what the first attempt made instead of making a second one.
 */
export function hexFrom(key: string): (n: number) => string {
  let pool = "";
  let counter = 0;
  return (n) => {
    while (pool.length < n) pool += createHash("sha256").update(key).update(`#${counter++}`).digest("hex");
    const out = pool.slice(0, n);
    pool = pool.slice(n);
    return out;
  };
}

/**
 * The create key of a resource: a digest of its URN (with the stack's identity) and of what it replaces, so that it
 * is the same for every attempt at one create (preview, up, the up after a crash) and new for each
 * replacement. Names are derived from it; resources without a name carry it as a marker.
 */
export function createKeyOf(urn: string, replaced: string | undefined): string {
  return createHash("sha256")
    .update(urn)
    .update(`\u0000${replaced ?? ""}`)
    .digest("hex")
    .slice(0, 32);
}
