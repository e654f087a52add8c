/** The bucket lifecycle configuration (spec 2.3, 4.1): a new configuration replaces the previous one as a whole. */

import { buildLifecycleXml, parseLifecycleXml } from "../wire/bucket-lifecycle";
import { extBucketPath } from "../path";
import type { LifecycleRule } from "../types";
import { orUndefined } from "../../core";
import { XML_TYPE, wrap, type Ops } from "./context";

export async function putLifecycle(c: Ops, bucket: string, rules: readonly LifecycleRule[]): Promise<LifecycleRule[]> {
  const action = `setting the lifecycle configuration of bucket "${bucket}"`;
  const xml = wrap(action, () => buildLifecycleXml(rules));
  const res = await c.send({
    operation: "PutBucketLifecycleConfiguration",
    idempotent: true,
    method: "PUT",
    path: extBucketPath(bucket, "lifecycle"),
    headers: { "content-type": XML_TYPE },
    body: xml,
    action,
  });
  const text = res.body.toString("utf8").trim();
  return text ? wrap(action, () => parseLifecycleXml(text)) : rules.map((r) => ({ ...r }));
}

/** The rules, or undefined when the bucket has no lifecycle configuration (404). */
export async function getLifecycle(c: Ops, bucket: string): Promise<LifecycleRule[] | undefined> {
  const action = `reading the lifecycle configuration of bucket "${bucket}"`;
  const res = await orUndefined(
    c.send({
      operation: "GetBucketLifecycleConfiguration",
      idempotent: true,
      method: "GET",
      path: extBucketPath(bucket, "lifecycle"),
      headers: { accept: XML_TYPE },
      action,
    }),
  );
  if (!res) return undefined;
  const text = res.body.toString("utf8").trim();
  return text ? wrap(action, () => parseLifecycleXml(text)) : [];
}

/** Returns false when there was nothing to delete (404). */
export async function deleteLifecycle(c: Ops, bucket: string): Promise<boolean> {
  const res = await orUndefined(
    c.send({
      operation: "DeleteBucketLifecycleConfiguration",
      idempotent: true,
      method: "DELETE",
      path: extBucketPath(bucket, "lifecycle"),
      action: `deleting the lifecycle configuration of bucket "${bucket}"`,
    }),
  );
  return res !== undefined;
}
