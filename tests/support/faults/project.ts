/**
 * What a fault test's project holds besides its stacks, for the fault matrix (cloud.ts) and the
 * engine-level reliability tests (reliability.ts) alike: the clients of the project, and the
 * setup its resources refer to (a symmetric KMS key, a MySQL instance holding database `shop`, a
 * bucket for query results).
 */
import { CacheClient } from "../../../client/cache";
import type { Settings } from "../../../client/core";
import { DataQueryClient } from "../../../client/dataquery";
import { KmsClient } from "../../../client/kms";
import { ObjectStorageClient } from "../../../client/objectstorage";

export interface ProjectClients {
  settings: Settings;
  os: ObjectStorageClient;
  cache: CacheClient;
  dq: DataQueryClient;
  kms: KmsClient;
  /** A symmetric KMS key of the project (setup, not the stack's). */
  keyId: string;
  /** A MySQL instance of the project holding database `shop` (setup). */
  instanceId: string;
  /** A bucket for query results (setup). */
  resultBucket: string;
}

const DB_SEED = {
  shop: `CREATE TABLE orders(id INTEGER, region VARCHAR, amount INTEGER);
         INSERT INTO orders VALUES (1, 'kr', 10), (2, 'us', 20), (3, 'kr', 5);`,
};

/** Sets a resource's record through the local cloud's control API (`PATCH /resources/...`). */
export type PatchResource = (service: string, kind: string, id: string, body: Record<string, unknown>) => Promise<unknown>;

/** The clients of project `projectId` and its setup, made through `patch` and the object storage client. */
export async function projectClients(settings: Settings, projectId: string, patch: PatchResource): Promise<ProjectClients> {
  const p: ProjectClients = {
    settings,
    os: new ObjectStorageClient({ settings }),
    cache: new CacheClient({ settings }),
    dq: new DataQueryClient({ settings }),
    kms: new KmsClient({ settings }),
    keyId: `key-${projectId}`,
    instanceId: `mysql-${projectId}`,
    resultBucket: `results-${projectId.toLowerCase()}`,
  };
  await patch("kms", "key", p.keyId, { projectId, type: "symmetric" });
  await patch("data-query", "instance", p.instanceId, { projectId, engine: "mysql", databases: DB_SEED });
  await p.os.createBucket({ name: p.resultBucket });
  return p;
}
