/**
 * Input rules of the object storage spec (01-object-storage.md), as zod schema factories. Factories,
 * not module-level schemas: nothing here may be built at import time of a serialized provider.
 */
import { isIP } from "node:net";
import { z } from "zod";
import { MARKER_HEX, OWNER_METADATA_KEY, RESERVED_METADATA_PREFIX } from "../core/ownership";

/** Section 8: bucket names are 4 to 63 characters; characters per docs/api-assumptions.md. */
export const BUCKET_NAME_RULE = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;

export function bucketName() {
  return z
    .string()
    .min(4, "must be 4 to 63 characters")
    .max(63, "must be 4 to 63 characters")
    .regex(BUCKET_NAME_RULE, "must be lower-case letters, digits and '-', starting and ending with a letter or digit");
}

/** Section 8: object names are 1 to 396 characters. */
export function objectKey() {
  return z
    .string()
    .min(1, "must be 1 to 396 characters")
    .max(396, "must be 1 to 396 characters")
    .refine((k) => !k.includes("\u0000"), "must not contain a NUL character");
}

/** An IPv4/IPv6 address or a CIDR range. */
export function isIpOrCidr(s: string): boolean {
  const [addr, bits, extra] = s.split("/");
  if (extra !== undefined) return false;
  const family = isIP(addr ?? "");
  if (family === 0) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

export const META_NAME_RULE = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;

/** What krcloud's ownership marker takes of the metadata total (ownership.ts): its key and a marker. */
const OWNER_METADATA_BYTES = OWNER_METADATA_KEY.length + MARKER_HEX;
/** The service's 4096 bytes of names and values, less the marker's. */
const METADATA_TOTAL_MAX = 4096 - OWNER_METADATA_BYTES;

/** Section 8: metadata names 2 to 64, values 0 to 512, names and values together at most 4096 bytes (less the ownership marker). */
export function metadata() {
  return z
    .record(
      z
        .string()
        .min(2, "metadata names must be 2 to 64 characters")
        .max(64, "metadata names must be 2 to 64 characters")
        .regex(META_NAME_RULE, "metadata names must be lower-case letters, digits and '-' (they travel as HTTP header names)"),
      z
        .string()
        .max(512, "metadata values must be at most 512 characters")
        .regex(/^[\x20-\x7e]*$/, "metadata values must be printable ASCII (they travel as HTTP header values; percent-encode other text)"),
    )
    .refine(
      (m) => Object.keys(m).every((k) => !k.startsWith(RESERVED_METADATA_PREFIX)),
      `metadata names starting with "${RESERVED_METADATA_PREFIX}" are reserved: krcloud keeps its ownership markers under them`,
    )
    .refine(
      (m) => Object.entries(m).reduce((n, [k, v]) => n + Buffer.byteLength(k) + Buffer.byteLength(v), 0) <= METADATA_TOTAL_MAX,
      `metadata names and values must total at most ${METADATA_TOTAL_MAX} bytes (the service's 4096, less the ${OWNER_METADATA_BYTES} of krcloud's ownership marker)`,
    );
}
