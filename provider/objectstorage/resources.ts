/** The resource classes users instantiate: `new krcloud.objectstorage.Bucket("logs", {...})`. */
import * as pulumi from "@pulumi/pulumi";
import type { z } from "zod";
import { resourceArgs, type AutoNamed, type InputArgs, type ResourceOutputs } from "../core";
import { bucketOutputs, type bucketInputs, type BucketOutputs } from "./bucket";
import { bucketCorsOutputs, type bucketCorsInputs, type BucketCorsOutputs } from "./bucket-cors";
import { bucketLifecycleOutputs, type bucketLifecycleInputs, type BucketLifecycleOutputs } from "./bucket-lifecycle";
import { bucketObjectOutputs, type bucketObjectInputs, type BucketObjectOutputs } from "./bucket-object";

/** `name` is optional: when omitted, the logical name plus a random suffix. */
export type BucketArgs = InputArgs<AutoNamed<z.input<ReturnType<typeof bucketInputs>>>>;
export type BucketCorsArgs = InputArgs<z.input<ReturnType<typeof bucketCorsInputs>>>;
export type BucketLifecycleArgs = InputArgs<z.input<ReturnType<typeof bucketLifecycleInputs>>>;
/** `source` takes a path or a Pulumi asset (FileAsset, StringAsset, file:// RemoteAsset). */
export type BucketObjectArgs = InputArgs<Omit<z.input<ReturnType<typeof bucketObjectInputs>>, "source">> & {
  source?: pulumi.Input<string | pulumi.asset.Asset>;
};

/** An object storage bucket with encryption, public-read ACL and metadata. */
export class Bucket extends pulumi.dynamic.Resource {
  static readonly token = "krcloud:objectstorage:Bucket";
  constructor(name: string, args: BucketArgs = {}, opts?: pulumi.CustomResourceOptions) {
    super(...resourceArgs(Bucket.token, name, args, bucketOutputs(), opts));
  }
}
export interface Bucket extends ResourceOutputs<BucketOutputs> {}

/** The whole CORS policy of a bucket, an ordered list of at most 10 rules. */
export class BucketCors extends pulumi.dynamic.Resource {
  static readonly token = "krcloud:objectstorage:BucketCors";
  constructor(name: string, args: BucketCorsArgs, opts?: pulumi.CustomResourceOptions) {
    super(...resourceArgs(BucketCors.token, name, args, bucketCorsOutputs(), opts));
  }
}
export interface BucketCors extends ResourceOutputs<BucketCorsOutputs> {}

/** The whole lifecycle (object expiry) configuration of a bucket. */
export class BucketLifecycle extends pulumi.dynamic.Resource {
  static readonly token = "krcloud:objectstorage:BucketLifecycle";
  constructor(name: string, args: BucketLifecycleArgs, opts?: pulumi.CustomResourceOptions) {
    super(...resourceArgs(BucketLifecycle.token, name, args, bucketLifecycleOutputs(), opts));
  }
}
export interface BucketLifecycle extends ResourceOutputs<BucketLifecycleOutputs> {}

/**
 * Outputs that reveal something of inline content (its ETag is its MD5; its size; the drift marker)
 * are secret when the content may be. A plain string is never secret; whether an Output is cannot
 * be known while the resource registers, so an Output's derived values are always kept secret.
 */
export function contentDerivedSecrets(args: Pick<BucketObjectArgs, "content" | "contentBase64" | "source">): string[] {
  const inline = [args.content, args.contentBase64];
  // A StringAsset is inline text too; so may be an Output that resolves to one.
  if (args.source !== undefined && typeof args.source !== "string" && !(pulumi.asset.Asset.isInstance(args.source) && !("text" in args.source)))
    inline.push(args.source as never);
  return inline.every((v) => v === undefined || typeof v === "string") ? [] : ["etag", "size", "contentMd5"];
}

/** A file or folder in a bucket. */
export class BucketObject extends pulumi.dynamic.Resource {
  static readonly token = "krcloud:objectstorage:BucketObject";
  constructor(name: string, args: BucketObjectArgs, opts?: pulumi.CustomResourceOptions) {
    super(...resourceArgs(BucketObject.token, name, args, bucketObjectOutputs(), opts, { outputs: contentDerivedSecrets(args) }));
  }
}
export interface BucketObject extends ResourceOutputs<BucketObjectOutputs> {}
