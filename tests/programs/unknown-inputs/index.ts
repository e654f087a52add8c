/**
 * Every input that can be is taken from the outputs of an upstream bucket, so the first preview sees
 * them all unknown, and an update of the upstream bucket (config `generation`) makes them unknown
 * again in later previews. Nothing here may fail in preview, and nothing may be replaced by it.
 */
import * as fs from "node:fs";
import * as pulumi from "@pulumi/pulumi";
import * as krcloud from "pulumi-krcloud";

const config = new pulumi.Config();
const generation = config.get("generation") ?? "1";
fs.writeFileSync("page.html", `<h1>generation ${generation}</h1>\n`);

const upstream = new krcloud.objectstorage.Bucket("upstream", {
  metadata: { origin: "https://app.example.com", team: "web", generation, days: "30", public: "read-only" },
});
const m = upstream.metadata;

const site = new krcloud.objectstorage.Bucket("site", {
  acl: m.apply((v) => ({ public: v.public as "read-only" })),
  metadata: m.apply((v) => ({ team: v.team, generation: v.generation })),
  forceDestroy: true,
});

const cors = new krcloud.objectstorage.BucketCors("site-cors", {
  bucket: site.name,
  rules: m.apply((v) => [{ allowedOrigins: [v.origin], allowedMethods: ["GET" as const], maxAgeSeconds: 600 }]),
});

const lifecycle = new krcloud.objectstorage.BucketLifecycle("site-lifecycle", {
  bucket: site.name,
  rules: m.apply((v) => [{ id: "expire-logs", prefix: "logs/", status: "Enabled" as const, expirationDays: Number(v.days) }]),
});

const page = new krcloud.objectstorage.BucketObject("page", {
  bucket: site.name,
  key: "index.html",
  source: m.apply(() => "page.html"),
  contentType: "text/html",
  metadata: m.apply((v) => ({ generation: v.generation })),
});

const note = new krcloud.objectstorage.BucketObject("note", {
  bucket: site.name,
  key: "note.txt",
  content: m.apply((v) => `made for ${v.team}, generation ${v.generation}\n`),
});

export const siteName = site.name;
export const corsOrigins = cors.rules.apply((rules) => rules.flatMap((r) => r.allowedOrigins));
export const lifecycleDays = lifecycle.rules.apply((rules) => rules[0].expirationDays);
export const pageEtag = page.etag;
export const noteSize = note.size;
