/**
 * Backup records: the cloud's public API documentation shows `GET /v1/backups?clusterName=…` and
 * `POST /v1/backups` answering `{objectId}`, not the record's fields; every field here is read under
 * the names it is likely to carry (docs/api-assumptions.md), none of them required but the id.
 */

import { z } from "zod";
import { once } from "../../core";
import type { BackupKind, CacheBackup } from "../types";
import { idFields, listReader, optBool, optNum, optStr, recordReader, statusFields } from "./readers";

const backupSchema = once(() => {
  return z.looseObject({
    ...idFields(),
    backupId: optStr(),
    name: optStr(),
    backupName: optStr(),
    clusterId: optStr(),
    sourceId: optStr(),
    clusterName: optStr(),
    clusterEnabled: optBool(),
    clusterMode: optBool(),
    version: optStr(),
    engineVersion: optStr(),
    shardCount: optNum(),
    type: optStr(),
    backupType: optStr(),
    kind: optStr(),
    status: optStr(),
    size: optNum(),
    sizeBytes: optNum(),
    backupSize: optNum(),
    sizeMb: optNum(),
    sizeMB: optNum(),
    createdAt: optStr(),
    expiresAt: optStr(),
  });
});

/** `automatic` / `manual` under their many spellings (`AUTO`, `scheduled`, `on-demand`, `USER`); anything else kept. */
export function backupKind(value: string | null | undefined): BackupKind | undefined {
  if (value == null || value.trim() === "") return undefined;
  const v = value
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, "");
  if (["auto", "automatic", "automated", "scheduled", "system"].includes(v)) return "automatic";
  if (["manual", "ondemand", "user", "snapshot"].includes(v)) return "manual";
  return value;
}

const MIB = 1024 * 1024;

export const flattenBackup: (body: unknown, action: string) => CacheBackup = recordReader(
  "backup",
  backupSchema,
  ["objectId", "id", "backupId"],
  (d) => {
    const mib = d.sizeMb ?? d.sizeMB;
    return {
      name: d.name ?? d.backupName,
      clusterId: d.clusterId ?? d.sourceId,
      clusterName: d.clusterName,
      clusterEnabled: d.clusterEnabled ?? d.clusterMode,
      version: d.version ?? d.engineVersion,
      shardCount: d.shardCount,
      kind: backupKind(d.type ?? d.backupType ?? d.kind),
      ...statusFields(d.status),
      sizeBytes: d.size ?? d.sizeBytes ?? d.backupSize ?? (mib == null ? undefined : mib * MIB),
      createdAt: d.createdAt,
      expiresAt: d.expiresAt,
    };
  },
  { wrapper: "backup" },
);

/** `{backups: [...]}`; `data`, `items` and a bare array are read too. */
export const flattenBackupList = listReader(flattenBackup, "backups", "backup list", ["data", "items"]);
