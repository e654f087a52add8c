/**
 * A bucket and an object served by the native plugin `pulumi-resource-krcloud`. Without a generated
 * TypeScript SDK, resources are `pulumi.CustomResource`s of the krcloud type tokens: the engine
 * routes them to the plugin. Stack config (namespace krcloud-test-native-site) steers each test:
 *
 *   mode             "native" (default) or "dynamic" (the pulumi-krcloud classes, to move a stack)
 *   aliasDynamic     "true": the native resources alias their dynamic types (moving a stack)
 *   bucketName       the bucket's name (default: auto-named from the logical name)
 *   acl              "deny" (default) or "read-only"
 *   owner            a secret: the bucket's `owner` metadata
 *   content          a secret: the object's content
 *   createTimeout    customTimeouts.create of the bucket, e.g. "2s"
 *   readTimeout      customTimeouts.read of the bucket (a refresh's read), e.g. "2s"
 *   adoptName        also declare a bucket "adopted" with this name and metadata team=ops (imported with `pulumi import`)
 *   importId         also declare a bucket "imported" with the `import` option and this id
 */
import * as pulumi from "@pulumi/pulumi";

const cfg = new pulumi.Config();
const mode = cfg.get("mode") ?? "native";
const aliasDynamic = cfg.getBoolean("aliasDynamic") ?? false;

const BUCKET_OUTPUTS = ["name", "type", "encryption", "acl", "metadata", "forceDestroy", "adopt", "project", "url", "createdAt", "bytes", "objectCount"];
const OBJECT_OUTPUTS = ["bucket", "key", "content", "contentType", "metadata", "etag", "size", "url", "contentMd5"];

/** A krcloud resource served by the native plugin; every output key is exposed as an output property. */
class Native extends pulumi.CustomResource {
  [key: string]: unknown;
  constructor(token: string, name: string, args: pulumi.Inputs, outputs: string[], opts: pulumi.CustomResourceOptions = {}) {
    const props: pulumi.Inputs = {};
    for (const k of outputs) props[k] = undefined;
    const [pkg, mod, type] = token.split(":");
    const aliases = aliasDynamic ? [{ type: `pulumi-nodejs:dynamic/${pkg}/${mod}:${type}` }] : [];
    super(token, name, { ...props, ...args }, { ...opts, aliases: [...(opts.aliases ?? []), ...aliases] });
  }
}

function bucket(name: string, args: pulumi.Inputs, opts?: pulumi.CustomResourceOptions): pulumi.Output<string> {
  if (mode === "dynamic") {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const krcloud = require("pulumi-krcloud");
    return new krcloud.objectstorage.Bucket(name, args, opts).name;
  }
  return new Native("krcloud:objectstorage:Bucket", name, args, BUCKET_OUTPUTS, opts).name as pulumi.Output<string>;
}

function object(name: string, args: pulumi.Inputs): pulumi.Output<string> {
  if (mode === "dynamic") {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const krcloud = require("pulumi-krcloud");
    return new krcloud.objectstorage.BucketObject(name, args).etag;
  }
  return new Native("krcloud:objectstorage:BucketObject", name, args, OBJECT_OUTPUTS).etag as pulumi.Output<string>;
}

const createTimeout = cfg.get("createTimeout");
const readTimeout = cfg.get("readTimeout");
const customTimeouts = { ...(createTimeout ? { create: createTimeout } : {}), ...(readTimeout ? { read: readTimeout } : {}) };
const siteName = bucket(
  "site",
  {
    name: cfg.get("bucketName"),
    acl: { public: cfg.get("acl") ?? "deny" },
    metadata: { owner: cfg.getSecret("owner") ?? "nobody" },
    forceDestroy: true,
  },
  Object.keys(customTimeouts).length > 0 ? { customTimeouts } : undefined,
);
const etag = object("index", { bucket: siteName, key: "index.html", content: cfg.getSecret("content") ?? "<h1>hello</h1>", contentType: "text/html" });

const adoptName = cfg.get("adoptName");
if (adoptName) bucket("adopted", { name: adoptName, metadata: { team: "ops" } });
const importId = cfg.get("importId");
if (importId) bucket("imported", { name: importId }, { import: importId });

export const bucketName = siteName;
export const indexEtag = etag;
