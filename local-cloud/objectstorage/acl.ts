import { isIpOrCidr } from "../core/ip";
import { InvalidAcl } from "./errors";
import type { BucketAcl } from "./model";

export const DEFAULT_ACL: Readonly<BucketAcl> = { public: "deny", ipList: null };

/** Validates and normalises an ACL as UpdateBucketAcl accepts it (`deny` equals no ACL). */
export function normaliseAcl(value: unknown): BucketAcl | null {
  if (value === null) return null;
  if (typeof value !== "object" || Array.isArray(value)) throw new InvalidAcl("acl must be an object or null.");
  const acl = value as Record<string, unknown>;
  for (const key of Object.keys(acl)) {
    if (!["public", "public_read_allow_ip_list", "permissions"].includes(key)) throw new InvalidAcl(`Unknown acl field "${key}".`);
  }
  const pub = acl.public ?? "deny";
  if (pub !== "read-only" && pub !== "deny") throw new InvalidAcl('acl.public must be "read-only" or "deny".');
  const list = acl.public_read_allow_ip_list;
  if (list !== undefined && list !== null) {
    if (!Array.isArray(list) || list.some((e) => typeof e !== "string" || !isIpOrCidr(e))) {
      throw new InvalidAcl("acl.public_read_allow_ip_list must be a list of IPv4/IPv6 addresses or CIDR ranges.");
    }
  }
  if (pub === "deny") return null;
  return { public: "read-only", ipList: Array.isArray(list) ? [...(list as string[])] : null };
}

/** Drift: merges a partial ACL into the current one, then validates it as UpdateBucketAcl would. */
export function mergeAcl(current: BucketAcl, patch: unknown): BucketAcl {
  if (patch === null) return { ...DEFAULT_ACL };
  if (typeof patch !== "object" || Array.isArray(patch)) throw new InvalidAcl("acl must be an object or null.");
  const merged = {
    public: current.public,
    public_read_allow_ip_list: current.ipList,
    ...(patch as Record<string, unknown>),
  };
  return normaliseAcl(merged) ?? { ...DEFAULT_ACL };
}
