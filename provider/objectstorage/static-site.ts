/**
 * krcloud:objectstorage:StaticSite — a component: a bucket readable without a token (optionally
 * only from an IP allow list), its CORS policy, a lifecycle rule that expires access logs, and a
 * BucketFolder of the site's files. Object storage has no website endpoint (no index or error
 * document setting on a bucket: spec 01-object-storage.md), so the index and error documents are
 * files of the folder, checked to be there, and the outputs give their URLs.
 *
 * The `layout` output records every value the component chose, defaults included: a later version
 * that changed a default would show there (and in the children's diffs), never silently.
 */
import { existsSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { z } from "zod";
import { all, type Output } from "@pulumi/pulumi/output";
import { componentClass, defineComponent, type ChildAccept, type DriftedChild } from "../core/component";
import { bucket as bucketDefinition, Bucket } from "./bucket";
import { BucketCors, bucketCors, corsRule } from "./bucket-cors";
import { BucketFolder, bucketFolder } from "./bucket-folder";
import { BucketLifecycle, bucketLifecycle } from "./bucket-lifecycle";
import { bucketName, isIpOrCidr, objectKey } from "./validation";
import type { StaticSiteArgs } from "./args";

/** The CORS policy when none is given: GET from any https origin, preflight cached for an hour. */
export const DEFAULT_SITE_CORS = [{ allowedOrigins: ["https://*"], allowedMethods: ["GET" as const], maxAgeSeconds: 3600 }];
export const DEFAULT_LOG_PREFIX = "logs/";
export const DEFAULT_LOG_EXPIRATION_DAYS = 30;
export const DEFAULT_INDEX_DOCUMENT = "index.html";

function documentName() {
  return objectKey().refine((k) => !k.endsWith("/"), "must name a file of the folder, not a folder");
}

export function staticSiteInputs() {
  return z
    .strictObject({
      bucketName: bucketName()
        .optional()
        .describe("The bucket's name. When omitted: the component's name plus a random suffix. Changing it replaces the bucket and the site in it."),
      path: z
        .string()
        .min(1, "must name the folder of the site")
        .describe("The local folder of the site's files, relative to the program's directory or absolute."),
      prefix: z
        .string()
        .regex(/^([^/].*\/)?$/, "must be empty or end with '/', and must not start with '/'")
        .default("")
        .describe("The key prefix the site's files go under (default: the bucket's root)."),
      exclude: z.array(z.string().min(1, "a glob must not be empty")).default([]).describe("Globs of files of the folder to leave out, e.g. `**/*.map`."),
      cacheControl: z.string().optional().describe("`Cache-Control` stored with every file of the site."),
      indexDocument: documentName()
        .default(DEFAULT_INDEX_DOCUMENT)
        .describe("The site's index document, a file of the folder (default `index.html`): `indexUrl` points at it."),
      errorDocument: documentName().optional().describe("The site's error document, a file of the folder (e.g. `404.html`): `errorUrl` points at it."),
      publicReadAllowIpList: z
        .array(z.string().refine(isIpOrCidr, "must be an IP address or CIDR range"))
        .default([])
        .describe("When not empty, token-less reads are allowed only from these IP addresses or CIDR ranges; default: from anywhere."),
      corsRules: z
        .array(corsRule())
        .min(1, "at least one rule is required (the default allows GET from any https origin)")
        .max(10, "at most 10 rules per bucket (a limit of object storage)")
        .default(DEFAULT_SITE_CORS)
        .describe("The bucket's CORS policy, in order. Default: GET from any `https://` origin, preflight cached for 3600 seconds."),
      logPrefix: z
        .string()
        .regex(/^[^/].*\/$/, "must end with '/' and must not start with '/' (the logs' folder)")
        .default(DEFAULT_LOG_PREFIX)
        .describe("The key prefix of the access logs the lifecycle rule expires (default `logs/`)."),
      logExpirationDays: z
        .number()
        .int("must be a whole number of days")
        .positive("must be greater than 0")
        .default(DEFAULT_LOG_EXPIRATION_DAYS)
        .describe("Objects under `logPrefix` are deleted this many days after they were written (default 30)."),
      forceDestroy: z
        .boolean()
        .default(true)
        .describe("On destroy, delete every object of the bucket, logs included (default true: the bucket is the site's own)."),
      deleteExtraObjects: z
        .boolean()
        .default(false)
        .describe(
          "Whether objects under the site's prefix that are no file of the folder (and not access logs or excluded) are deleted at the next `up` (default false: kept, and reported as drift of the site's folder). The BucketFolder's `deleteExtraObjects`.",
        ),
    })
    .superRefine((i, ctx) => {
      if (i.prefix.startsWith(i.logPrefix))
        ctx.addIssue({ code: "custom", path: ["prefix"], message: `must not be under logPrefix "${i.logPrefix}": the lifecycle rule would expire the site` });
      const root = resolve(i.path);
      if (!existsSync(root) || !statSync(root).isDirectory()) {
        ctx.addIssue({ code: "custom", path: ["path"], message: `"${i.path}" is not a folder` });
        return;
      }
      for (const key of ["indexDocument", "errorDocument"] as const) {
        const doc = i[key];
        if (doc !== undefined && !existsSync(join(root, doc)))
          ctx.addIssue({ code: "custom", path: [key], message: `"${doc}" is not a file of the folder "${i.path}"` });
      }
    });
}
export type StaticSiteInputs = z.infer<ReturnType<typeof staticSiteInputs>>;

function layoutShape() {
  return z.strictObject({
    bucketName: z.string().describe("The bucket's name."),
    publicRead: z.string().describe("The bucket's public access: `read-only`."),
    publicReadAllowIpList: z.array(z.string()).describe("Where token-less reads are allowed from; empty: anywhere."),
    corsRules: z.array(corsRule()).describe("The CORS policy set."),
    logPrefix: z.string().describe("The prefix of the expired logs."),
    logExpirationDays: z.number().describe("After how many days logs are deleted."),
    prefix: z.string().describe("The key prefix of the site's files."),
    exclude: z.array(z.string()).describe("The globs left out of the folder: the program's, and the access logs' when they are under the site's prefix."),
    indexDocument: z.string().describe("The index document."),
    errorDocument: z.string().optional().describe("The error document, when one is set."),
    forceDestroy: z.boolean().describe("Whether destroy deletes every object of the bucket."),
    deleteExtraObjects: z.boolean().describe("Whether objects under the prefix that are no file of the site are deleted."),
  });
}
export type StaticSiteLayout = z.infer<ReturnType<typeof layoutShape>>;

export function staticSiteOutputs() {
  return z.strictObject({
    url: z.string().describe("The site's URL: the folder's, under which each file is its relative path."),
    indexUrl: z.string().describe("The URL of the index document."),
    errorUrl: z.string().optional().describe("The URL of the error document, when one is set."),
    bucketName: z.string().describe("The bucket's name."),
    fileCount: z.number().describe("The number of files of the site in the bucket."),
    layout: layoutShape().describe("What the component created, with every default it applied: compare it across versions to see that none changed."),
  });
}
export type StaticSiteOutputs = z.infer<ReturnType<typeof staticSiteOutputs>>;

/**
 * The folder's exclude globs: the program's, and the access logs when they sit under the site's
 * prefix (as by default), so that a refresh does not report every log object as drift of the folder.
 */
export function folderExclude(i: Pick<StaticSiteInputs, "exclude" | "logPrefix" | "prefix">): string[] {
  return i.logPrefix.startsWith(i.prefix) ? [...i.exclude, `${i.logPrefix.slice(i.prefix.length)}**`] : i.exclude;
}

/** The layout recorded for validated inputs and the bucket's name. */
export function siteLayout(i: StaticSiteInputs, bucket: string): StaticSiteLayout {
  return {
    bucketName: bucket,
    publicRead: "read-only",
    publicReadAllowIpList: i.publicReadAllowIpList,
    corsRules: i.corsRules,
    logPrefix: i.logPrefix,
    logExpirationDays: i.logExpirationDays,
    prefix: i.prefix,
    exclude: folderExclude(i),
    indexDocument: i.indexDocument,
    ...(i.errorDocument !== undefined ? { errorDocument: i.errorDocument } : {}),
    forceDestroy: i.forceDestroy,
    deleteExtraObjects: i.deleteExtraObjects,
  };
}

/** The site's children: each one's type, and its name as the site's name plus this suffix. */
const CHILDREN = {
  bucket: { type: bucketDefinition.token, suffix: "" },
  cors: { type: bucketCors.token, suffix: "-cors" },
  logs: { type: bucketLifecycle.token, suffix: "-logs" },
  content: { type: bucketFolder.token, suffix: "-content" },
} as const;
/** The id of the site's one lifecycle rule. */
const LOG_RULE_ID = "expire-logs";

/** The site's name from a child's, or undefined when the child is none of a site's. */
function siteOfChild(child: { name: string; type: string }): string | undefined {
  const c = Object.values(CHILDREN).find((k) => k.type === child.type && child.name.endsWith(k.suffix));
  return c === undefined ? undefined : child.name.slice(0, child.name.length - c.suffix.length);
}

/**
 * The site's inputs that keep a child's drifted inputs as the cloud has them (krcloud-drift's accept
 * line), and why none keeps the others: the site always makes its bucket public-read, keeps one
 * enabled lifecycle rule, and sets nothing else on its bucket.
 */
function acceptChildDrift(child: DriftedChild): ChildAccept {
  const shape = staticSiteInputs().shape;
  const out: ChildAccept = { inputs: {}, unkept: {} };
  for (const key of child.keys) {
    const value = child.cloud[key];
    const kept =
      child.type === CHILDREN.bucket.type && key === "acl"
        ? keptAcl(value, shape.publicReadAllowIpList)
        : child.type === CHILDREN.cors.type && key === "rules"
          ? keptCors(value, shape.corsRules)
          : child.type === CHILDREN.logs.type && key === "rules"
            ? keptLogRule(value, shape.logPrefix, shape.logExpirationDays)
            : `a StaticSite sets no ${key} on its ${child.type.split(":")[2]}`;
    if (typeof kept === "string") out.unkept[key] = kept;
    else Object.assign(out.inputs, kept);
  }
  return out;
}

function keptAcl(acl: unknown, list: z.ZodType): Record<string, unknown> | string {
  const a = (acl ?? {}) as { public?: unknown; publicReadAllowIpList?: unknown };
  const ips = list.safeParse(a.publicReadAllowIpList ?? []);
  if (a.public === "read-only" && ips.success) return { publicReadAllowIpList: ips.data };
  return `a StaticSite's bucket is always readable without a token (acl.public "read-only"): no input keeps ${JSON.stringify(acl ?? null)}`;
}

function keptCors(rules: unknown, corsRules: z.ZodType): Record<string, unknown> | string {
  const r = corsRules.safeParse(rules);
  // The cloud's rules as they are (parsing would spell out defaults the program need not write).
  if (r.success) return { corsRules: rules };
  return `a StaticSite's corsRules cannot be this policy (${r.error.issues[0]?.message ?? "not a CORS policy"})`;
}

function keptLogRule(rules: unknown, logPrefix: z.ZodType, days: z.ZodType): Record<string, unknown> | string {
  const [rule, ...more] = Array.isArray(rules) ? (rules as Record<string, unknown>[]) : [];
  const set = rule === undefined ? [] : Object.keys(rule).filter((k) => rule[k] !== undefined);
  if (
    rule !== undefined &&
    more.length === 0 &&
    rule.id === LOG_RULE_ID &&
    rule.status === "Enabled" &&
    set.every((k) => ["id", "prefix", "status", "expirationDays"].includes(k))
  ) {
    const p = logPrefix.safeParse(rule.prefix);
    const d = days.safeParse(rule.expirationDays);
    if (p.success && d.success) return { logPrefix: p.data, logExpirationDays: d.data };
  }
  return `a StaticSite's lifecycle configuration is one enabled rule "${LOG_RULE_ID}" expiring logPrefix after logExpirationDays days: no input keeps ${JSON.stringify(rules ?? null)}`;
}

export const staticSite = defineComponent<StaticSiteInputs, StaticSiteOutputs>({
  token: "krcloud:objectstorage:StaticSite",
  description:
    "A static web site: a bucket readable without a token (optionally only from an IP allow list), its CORS policy, a lifecycle rule expiring its access logs, and a BucketFolder of the site's files, with the index and error documents' URLs. The `layout` output records every default applied.",
  build(scope, name, inputs) {
    const bucket = scope.resource(Bucket, name, {
      // Undefined (auto-named) resolves as an absent input.
      name: inputs.get("bucketName") as Output<string>,
      acl: inputs.get("publicReadAllowIpList").apply((list) => ({
        public: "read-only" as const,
        ...(list.length > 0 ? { publicReadAllowIpList: list } : {}),
      })),
      forceDestroy: inputs.get("forceDestroy"),
    });
    scope.resource(BucketCors, `${name}${CHILDREN.cors.suffix}`, { bucket: bucket.name, rules: inputs.get("corsRules") });
    scope.resource(BucketLifecycle, `${name}${CHILDREN.logs.suffix}`, {
      bucket: bucket.name,
      rules: all([inputs.get("logPrefix"), inputs.get("logExpirationDays")]).apply(([prefix, days]) => [
        { id: LOG_RULE_ID, prefix, status: "Enabled" as const, expirationDays: days },
      ]),
    });
    const folder = scope.resource(BucketFolder, `${name}${CHILDREN.content.suffix}`, {
      bucket: bucket.name,
      path: inputs.get("path"),
      prefix: inputs.get("prefix"),
      exclude: all([inputs.get("exclude"), inputs.get("logPrefix"), inputs.get("prefix")]).apply(([exclude, logPrefix, prefix]) =>
        folderExclude({ exclude, logPrefix, prefix }),
      ),
      cacheControl: inputs.get("cacheControl") as Output<string>,
      deleteExtraObjects: inputs.get("deleteExtraObjects"),
    });
    return {
      url: folder.url,
      indexUrl: all([folder.url, inputs.get("indexDocument")]).apply(([url, doc]) => `${url}${doc}`),
      errorUrl: all([folder.url, inputs.get("errorDocument")]).apply(([url, doc]) => (doc === undefined ? undefined : `${url}${doc}`)),
      bucketName: bucket.name,
      fileCount: folder.fileCount,
      layout: all([inputs.all, bucket.name]).apply(([i, b]) => siteLayout(i, b)),
    };
  },
  inputs: staticSiteInputs,
  outputs: staticSiteOutputs,
  drift: { ownerOf: siteOfChild, accept: acceptChildDrift },
});

export type { StaticSiteArgs } from "./args";
export const StaticSite = componentClass<StaticSiteArgs, StaticSiteOutputs>(staticSite);
