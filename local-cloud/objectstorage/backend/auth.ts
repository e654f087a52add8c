import { createHmac, timingSafeEqual } from "node:crypto";
import { ipAllowed } from "../../core/ip";
import { TempUrlDenied } from "../errors";
import type { Bucket } from "../model";
import type { ObjectStorageState } from "./state";

/** Access decided by stored state: public-read ACLs and temporary URL signatures (spec 01 §4.6, §5). */
export class AuthBackend {
  constructor(private readonly state: ObjectStorageState) {}

  /** Whether a token-less read of this bucket is allowed from `clientIp` (acl.public = read-only and the IP list). */
  publicReadAllowed(account: string, bucketName: string, clientIp: string): boolean {
    const bucket = this.state.findBucket(account, bucketName);
    if (!bucket || bucket.acl.public !== "read-only") return false;
    const list = bucket.acl.ipList;
    return !list || list.length === 0 || ipAllowed(clientIp, list);
  }

  private tempUrlSignature(account: string, path: string, expires: string): string | undefined {
    const project = this.state.credentials.project(account);
    if (!project) return undefined;
    return createHmac("sha256", project.tempUrlKey).update(`GET\n${expires}\n${path}`).digest("hex");
  }

  createTempUrl(account: string, bucket: Bucket, name: string, expires: number): { url: string; sig: string } {
    const path = `/v1/${account}/${bucket.name}/${name}`;
    const sig = this.tempUrlSignature(account, path, String(expires))!;
    const encoded = `/v1/${encodeURIComponent(account)}/${encodeURIComponent(bucket.name)}/${name.split("/").map(encodeURIComponent).join("/")}`;
    return { url: `${encoded}?temp_url_sig=${sig}&temp_url_expires=${expires}`, sig };
  }

  /** Checks a temp URL download: HMAC-SHA256 over "GET\n{expires}\n{decoded path}" with the project's key. */
  verifyTempUrl(account: string, bucketName: string, name: string, sig: string, expires: string, nowMs: number): void {
    if (!/^\d{1,12}$/.test(expires)) throw new TempUrlDenied("temp_url_expires must be a Unix timestamp in seconds");
    const expected = this.tempUrlSignature(account, `/v1/${account}/${bucketName}/${name}`, expires);
    const given = Buffer.from(sig.toLowerCase());
    if (!expected || given.length !== expected.length || !timingSafeEqual(given, Buffer.from(expected))) {
      throw new TempUrlDenied("signature does not match");
    }
    if (Math.floor(nowMs / 1000) > Number(expires)) throw new TempUrlDenied("the URL has expired");
  }
}
