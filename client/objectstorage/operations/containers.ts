/** Swift account and containers (spec 4.2, 2.6), and the temp URL key of upstream Swift. */

import { accountInfoFromHeaders, containerInfoFromHeaders, parseContainerNames } from "../parse";
import { InvalidArgumentError } from "../errors";
import { ACCOUNT_PAGE_LIMIT } from "../limits";
import { CONTAINER_META, REMOVE_CONTAINER_META, metadataHeaders, removeMetadataHeaders } from "../metadata";
import { accountPath, containerPath } from "../path";
import type { AccountInfo, ContainerInfo } from "../types";
import { orUndefined } from "../../core";
import { JSON_TYPE, jsonRequest, wrap, type Ops } from "./context";

/** Account statistics and every bucket name (plain-text listing, followed page by page). */
export async function getAccount(c: Ops): Promise<AccountInfo> {
  const action = "listing buckets of the project";
  const path = accountPath(c.account(action));
  const names: string[] = [];
  let headers: Record<string, string> = {};
  for (let marker: string | undefined; ;) {
    const res = await c.send(jsonRequest("ListContainers", "GET", path, action, { idempotent: true, query: { marker } }));
    if (marker === undefined) headers = res.headers;
    const page = parseContainerNames(res.body);
    names.push(...page);
    const last = page[page.length - 1];
    // Upstream Swift pages by 10000 by default, the spec by 1000: ask again only after a page of
    // at least 1000 names, and stop if the server ignores the marker.
    if (page.length < ACCOUNT_PAGE_LIMIT || last === undefined || (marker !== undefined && last <= marker)) break;
    marker = last;
  }
  return accountInfoFromHeaders(names, headers);
}

export async function listContainers(c: Ops): Promise<string[]> {
  return (await getAccount(c)).containers;
}

export async function headContainer(c: Ops, name: string): Promise<ContainerInfo> {
  const action = `reading bucket "${name}"`;
  const res = await c.send(jsonRequest("HeadContainer", "HEAD", containerPath(c.account(action), name), action, { idempotent: true }));
  return containerInfoFromHeaders(name, res.headers);
}

export async function findContainer(c: Ops, name: string): Promise<ContainerInfo | undefined> {
  return orUndefined(headContainer(c, name));
}

/** Swift answers 201, or 202 when the container already exists: both are success. */
export async function createContainer(c: Ops, name: string, o: { metadata?: Record<string, string> } = {}): Promise<void> {
  const action = `creating bucket "${name}"`;
  await c.send({
    operation: "CreateContainer",
    idempotent: true,
    method: "PUT",
    path: containerPath(c.account(action), name),
    headers: { "content-type": JSON_TYPE, "content-length": "0", ...wrap(action, () => metadataHeaders(CONTAINER_META, o.metadata)) },
    body: "",
    action,
  });
}

export async function deleteContainer(c: Ops, name: string): Promise<void> {
  const action = `deleting bucket "${name}"`;
  await c.send(jsonRequest("DeleteContainer", "DELETE", containerPath(c.account(action), name), action, { idempotent: true }));
}

/** Sets keys in `set` and removes keys in `remove`, in one request; other keys are untouched. */
export async function updateContainerMetadata(c: Ops, name: string, set: Record<string, string> = {}, remove: readonly string[] = []): Promise<void> {
  const action = `setting the metadata of bucket "${name}"`;
  const overlap = remove.find((k) => Object.keys(set).some((s) => s.toLowerCase() === k.toLowerCase()));
  if (overlap !== undefined) throw new InvalidArgumentError(`${action}: key "${overlap}" is both set and removed`);
  await c.send({
    operation: "UpdateContainerMetadata",
    idempotent: true,
    method: "POST",
    path: containerPath(c.account(action), name),
    headers: {
      "content-type": JSON_TYPE,
      "content-length": "0",
      ...wrap(action, () => ({ ...metadataHeaders(CONTAINER_META, set), ...removeMetadataHeaders(REMOVE_CONTAINER_META, remove) })),
    },
    body: "",
    action,
  });
}

/**
 * Stores the key that locally signed temp URLs are checked against, on the account or on one
 * bucket (`X-Account-Meta-Temp-URL-Key` / `X-Container-Meta-Temp-URL-Key`). Upstream Swift only:
 * the spec has no such operation (its temp URLs come from createTempUrl).
 */
export async function setTempUrlKey(c: Ops, key: string, o: { bucket?: string } = {}): Promise<void> {
  const action = o.bucket ? `setting the temp URL key of bucket "${o.bucket}"` : "setting the temp URL key of the project";
  const account = c.account(action);
  await c.send({
    operation: o.bucket ? "UpdateContainerMetadata" : "UpdateAccountMetadata",
    idempotent: true,
    method: "POST",
    path: o.bucket ? containerPath(account, o.bucket) : accountPath(account),
    headers: { [o.bucket ? "x-container-meta-temp-url-key" : "x-account-meta-temp-url-key"]: key, "content-length": "0" },
    body: "",
    action,
  });
}
