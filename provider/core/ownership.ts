/**
 * Proof of ownership: what a create writes into the resource it makes, so that a later create that
 * meets the resource (a 409, or a lookup after an unknown outcome) can tell this stack's earlier
 * attempt from another stack's resource. A name cannot tell them apart: two stacks of the same
 * name and project in different backends derive the same URN.
 *
 * The marker is the first `MARKER_HEX` hex digits of the resource's create key (naming.ts
 * `createKeyOf`), which digests the URN and the stack's identity (the native plugin's provider id,
 * or the dynamic classes' StackIdentity resource): the same for every attempt at one create, the
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
 * A description's trailing ownership tag: ` [krcloud:<marker>]`, or with a pending step
 * ` [krcloud:<marker>+<step>]` (a cache cluster's shard being added: the digest of the shards
 * there before it, so the run after a killed CLI knows which shard that step made).
 */
const TAG = /(?:^| )\[krcloud:([0-9a-f]{16})(?:\+([0-9a-f]{8}))?\]$/;

/** Characters the tag takes at most (with its leading space and a pending step). */
export const DESCRIPTION_TAG_MAX = " [krcloud:".length + MARKER_HEX + "+".length + 8 + "]".length;

/** The description the service is sent: the user's text with the tag appended (no tag without a marker). */
export function taggedDescription(text: string | undefined, marker: string | undefined, pending?: string): string | undefined {
  if (marker === undefined) return text;
  const tag = `[krcloud:${marker}${pending ? `+${pending}` : ""}]`;
  return text ? `${text} ${tag}` : tag;
}

/** A description as the service shows it, split into the user's text and the tag's parts. */
export function splitDescription(shown: string | undefined): { text: string | undefined; marker?: string; pending?: string } {
  if (typeof shown !== "string") return { text: shown };
  const m = TAG.exec(shown);
  if (!m) return { text: shown };
  return { text: shown.slice(0, m.index), marker: m[1], ...(m[2] ? { pending: m[2] } : {}) };
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
