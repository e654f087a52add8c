/**
 * A public static website in krcloud object storage:
 *   - a public-read bucket (auto-named from the logical name "site"),
 *   - a CORS policy letting one https origin GET from it,
 *   - a lifecycle rule expiring access logs under `logs/` after 30 days,
 *   - every file and folder under ./site uploaded as an object.
 *
 * Settings (stack config): krcloud:projectId, krcloud:authToken (secret), and for the local cloud
 * krcloud:localCloudUrl. Program settings: corsOrigin (default https://www.example.com),
 * siteVerification (optional secret, stored as bucket metadata), tempUrlHours (default 24).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud";

const config = new pulumi.Config();
const corsOrigin = config.get("corsOrigin") ?? "https://www.example.com";
const siteVerification = config.getSecret("siteVerification");
const tempUrlHours = config.getNumber("tempUrlHours") ?? 24;

// Paths stay relative to the project directory (Pulumi runs the program and the provider there), so
// the state does not depend on where the project is checked out.
const SITE_DIR = "site";

const CONTENT_TYPES: Record<string, string> = {
  ".html": "text/html",
  ".css": "text/css",
  ".js": "text/javascript",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".txt": "text/plain",
};

const bucket = new krcloud.objectstorage.Bucket("site", {
  acl: { public: "read-only" },
  metadata: pulumi.output(siteVerification).apply((v) => ({ purpose: "static-site", ...(v ? { "site-verification": v } : {}) })),
  // Access logs land under logs/ without Pulumi knowing them; deleting the stack deletes them too.
  forceDestroy: true,
});

const cors = new krcloud.objectstorage.BucketCors("site-cors", {
  bucket: bucket.name,
  rules: [{ allowedOrigins: [corsOrigin], allowedMethods: ["GET"], maxAgeSeconds: 3600 }],
});

const lifecycle = new krcloud.objectstorage.BucketLifecycle("site-lifecycle", {
  bucket: bucket.name,
  rules: [{ id: "expire-logs", prefix: "logs/", status: "Enabled", expirationDays: 30 }],
});

/** Every file and folder under `dir`, as object keys (`assets`, `assets/style.css`), sorted for a stable plan. */
function walk(dir: string, prefix = ""): { key: string; folder: boolean }[] {
  const out: { key: string; folder: boolean }[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const key = prefix + entry.name;
    if (entry.isDirectory()) {
      out.push({ key, folder: true }, ...walk(path.join(dir, entry.name), `${key}/`));
    } else if (entry.isFile()) {
      out.push({ key, folder: false });
    }
  }
  return out;
}

const objects = new Map<string, krcloud.objectstorage.BucketObject>();
for (const { key, folder } of walk(SITE_DIR)) {
  objects.set(
    key,
    folder
      ? new krcloud.objectstorage.BucketObject(key, { bucket: bucket.name, key, folder: true })
      : new krcloud.objectstorage.BucketObject(key, {
          bucket: bucket.name,
          key,
          source: path.join(SITE_DIR, key),
          contentType: CONTENT_TYPES[path.extname(key).toLowerCase()] ?? "application/octet-stream",
        }),
  );
}
const index = objects.get("index.html");
if (!index) throw new Error(`${SITE_DIR}/index.html is missing`);

export const bucketName = bucket.name;
export const bucketUrl = bucket.url;
export const indexUrl = index.url;
export const corsOrigins = cors.rules.apply((rules) => rules.flatMap((r) => r.allowedOrigins));
export const logRetentionDays = lifecycle.rules.apply((rules) => rules[0].expirationDays);
export const objectKeys = [...objects.keys()];

// A signed download link that works without a token. The expiry is rounded to the hour so that
// running `pulumi up` again within the hour keeps the same URL. (In the first preview the bucket does
// not exist yet: the lookup's result is then unknown, and `up` signs it once the bucket exists.)
// A secret output (its signature grants access): `pulumi stack output --show-secrets tempUrl` prints it.
// It stays the same on every run within a period of tempUrlHours, so no run shows it as changed.
export const tempUrl = krcloud.objectstorage.getTempUrlOutput({ bucket: bucket.name, key: index.key, expiresIn: tempUrlHours * 3600 }).url;
