/** Swift account and container statistics from response headers (seed 2.6). */

import { CONTAINER_META, metadataFromHeaders } from "./metadata";
import { intHeader } from "./object";
import type { AccountInfo, ContainerInfo } from "./types";

export function containerInfoFromHeaders(name: string, h: Record<string, string>): ContainerInfo {
  const info: ContainerInfo = { name, metadata: metadataFromHeaders(CONTAINER_META, h), headers: h };
  const set = <K extends keyof ContainerInfo>(k: K, v: ContainerInfo[K] | undefined): void => {
    if (v !== undefined) info[k] = v;
  };
  set("objectCount", intHeader(h["x-container-object-count"]));
  set("bytesUsed", intHeader(h["x-container-bytes-used"]));
  set("bytesUsedActual", intHeader(h["x-container-bytes-used-actual"]));
  set("storagePolicy", h["x-storage-policy"]);
  set("timestamp", intHeader(h["x-timestamp"]));
  return info;
}

/** The plain-text account listing: one bucket name per line. */
export function parseContainerNames(body: Buffer): string[] {
  return body
    .toString("utf8")
    .split(/\r?\n/)
    .filter((l) => l !== "");
}

export function accountInfoFromHeaders(containers: string[], h: Record<string, string>): AccountInfo {
  const info: AccountInfo = { containers };
  const set = <K extends keyof AccountInfo>(k: K, v: AccountInfo[K] | undefined): void => {
    if (v !== undefined) info[k] = v;
  };
  set("containerCount", intHeader(h["x-account-container-count"]));
  set("objectCount", intHeader(h["x-account-object-count"]));
  set("bytesUsed", intHeader(h["x-account-bytes-used"]));
  set("bytesUsedActual", intHeader(h["x-account-bytes-used-actual"]));
  set("timestamp", intHeader(h["x-timestamp"]));
  return info;
}
