/** The local cloud the in-process studies share the shape of: one of their own in this process, with a token. */
import { startLocalCloud, type LocalCloud } from "../../local-cloud";
import { closeAllPools, endpointOf, resolveSettings, type Settings } from "../../client/core";

export interface BenchCloud {
  cloud: LocalCloud;
  settings: Settings;
  /** The object storage endpoint. */
  endpoint: string;
  token: string;
  projectId: string;
}

/**
 * Runs `fn` against a local cloud started for it (simulated cache nodes: settle times follow its
 * managed lifecycle), then closes the client pools and the cloud.
 */
export async function withCloud<T>(fn: (c: BenchCloud) => Promise<T>): Promise<T> {
  const cloud = await startLocalCloud({ port: 0, cacheEngine: "simulated" });
  try {
    const cred = cloud.control.issueCredentials({});
    if (cred.kind !== "token") throw new Error("expected a token");
    const settings = resolveSettings({ localCloudUrl: cloud.url, authToken: cred.token, projectId: cred.projectId }, () => undefined, {});
    return await fn({ cloud, settings, endpoint: endpointOf(settings, "objectstorage"), token: cred.token, projectId: cred.projectId });
  } finally {
    await closeAllPools();
    await cloud.close();
  }
}
