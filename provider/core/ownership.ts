/**
 * Proof of ownership: what a create writes into the resource it makes, so that a later create that
 * meets the resource (a 409, or a lookup after an unknown outcome) can tell this stack's earlier
 * attempt from another stack's resource. A name cannot tell them apart: two stacks of the same
 * name and project in different backends derive the same URN.
 *
 * The marker is the first `MARKER_HEX` hex digits of the resource's create key (naming.ts
 * `createKeyOf`), which digests the URN and the stack's identity (the native plugin's provider id,
 * or the dynamic classes' krcloud-stack provider resource): the same for every attempt at one create, the
 * run after a killed CLI included, and different for the same URN in another backend.
 *
 * Where it is written depends on what the service keeps (docs/api-assumptions.md, "Ownership
 * markers"): bucket and object metadata, a description's trailing tag, a Hadoop configuration
 * property, a query's SQL comment. Reads strip it, so it never shows as a diff or as drift.
 */
import { UNKNOWN } from "./unknown";

/** Hex digits of the create key a marker keeps: 64 bits, so two stacks never share one. */
export const MARKER_HEX = 16;

/** The marker of a create key; undefined when the key is not known (a preview before the stack's identity exists). */
export function markerOf(createKey: string | undefined): string | undefined {
  return typeof createKey === "string" && /^[0-9a-f]{16,}$/.test(createKey) ? createKey.slice(0, MARKER_HEX) : undefined;
}

/** Bucket and object metadata key of the marker (`X-Container-Meta-Krcloud-Owner`, `X-Object-Meta-Krcloud-Owner`). */
export const OWNER_METADATA_KEY = "krcloud-owner";
/** Metadata keys krcloud keeps for itself (the marker, a bucket document's claim): never a program's, never reported. */
export const RESERVED_METADATA_PREFIX = "krcloud-";

/** `metadata` without the keys krcloud keeps for itself. */
export function withoutReservedMetadata(metadata: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(metadata).filter(([k]) => !k.startsWith(RESERVED_METADATA_PREFIX)));
}

/**
 * A description's trailing ownership tag, where a service offers no other place (the cache's
 * records, data sources: docs/reliability.md "Where the proof of ownership is"). It is as short as
 * the marker allows: ` [k:<marker>]`, the marker's 64 bits in 13 base-36 digits (lower-case letters
 * and digits, which any description takes and no service folds), 18 characters with its space.
 * A cache cluster's shard being added adds its pending step, the 32-bit digest of the shards there
 * before it in 7 more (`+<step>`), so the run after a killed CLI knows which shard that step made.
 *
 * Descriptions written before read the same: ` [krcloud:<16 hex>]` and ` [krcloud:<16 hex>+<8 hex>]`
 * (36 characters) are recognised, and give the same marker and step; the next write of such a
 * description writes the short tag.
 */
const TAG = /(?:^| )\[(?:k:([0-9a-z]{13})(?:\+([0-9a-z]{7}))?|krcloud:([0-9a-f]{16})(?:\+([0-9a-f]{8}))?)\]$/;

/** Characters the tag takes (with its leading space), without and with a pending step. */
export const DESCRIPTION_TAG_LENGTH = " [k:".length + 13 + "]".length;
export const DESCRIPTION_TAG_WITH_STEP_LENGTH = DESCRIPTION_TAG_LENGTH + "+".length + 7;

/** A marker written in 13 base-36 digits, as the description tag and a query's SQL comment carry it. */
export function markerDigits(marker: string): string {
  return toBase36(marker, 13);
}

/** `hex` (a marker or a step digest) in `width` base-36 digits, and back. */
function toBase36(hex: string, width: number): string {
  return BigInt(`0x${hex}`).toString(36).padStart(width, "0");
}
function fromBase36(digits: string, hexWidth: number): string | undefined {
  let n = 0n;
  for (const d of digits) n = n * 36n + BigInt(parseInt(d, 36));
  const hex = n.toString(16);
  return hex.length > hexWidth ? undefined : hex.padStart(hexWidth, "0");
}

/** The description the service is sent: the user's text with the tag appended (no tag without a marker). */
export function taggedDescription(text: string | undefined, marker: string | undefined, pending?: string): string | undefined {
  if (marker === undefined) return text;
  const tag = `[k:${markerDigits(marker)}${pending ? `+${toBase36(pending, 7)}` : ""}]`;
  return text ? `${text} ${tag}` : tag;
}

/** A description as the service shows it, split into the user's text and the tag's parts (the marker and step in hex, whichever the form). */
export function splitDescription(shown: string | undefined): { text: string | undefined; marker?: string; pending?: string } {
  if (typeof shown !== "string") return { text: shown };
  const m = TAG.exec(shown);
  if (!m) return { text: shown };
  const marker = m[1] !== undefined ? fromBase36(m[1], MARKER_HEX) : m[3];
  const pending = m[2] !== undefined ? fromBase36(m[2], 8) : m[4];
  // Base-36 digits beyond 64 bits are no tag of ours: the text is the user's.
  if (marker === undefined || (m[2] !== undefined && pending === undefined)) return { text: shown };
  return { text: shown.slice(0, m.index), marker, ...(pending ? { pending } : {}) };
}

/**
 * A description as recorded, from what the service shows: the user's text without the tag, and
 * none where that is empty and the program set none (`prior`).
 */
export function recordedDescription(shown: string | undefined, prior: string | undefined): string | undefined {
  const text = splitDescription(shown).text ?? "";
  return text === "" && prior === undefined ? undefined : text;
}

/** Whether a stack identity or create key given to check is still unknown (a preview before it exists). */
export function isUnknownValue(v: unknown): boolean {
  return v === UNKNOWN;
}
