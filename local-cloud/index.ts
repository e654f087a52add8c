/**
 * The local cloud: a real HTTP server on loopback that answers the spec APIs (the project's
 * contract). It never imports sdk/ or provider/: it is an independent reading of the specs, so the
 * two catch each other's mistakes. Documentation: docs/local-cloud.md.
 */
import { installConsole } from "./console";
import { installControl, type LocalCloudControl } from "./core/control";
import { LocalCloudServer, type LocalCloudOptions, type ServiceFactory } from "./core/server";
import { createObjectStorageService } from "./objectstorage";
import { createCacheService } from "./cache";
import { createKmsService } from "./kms";
import { createDataQueryService } from "./dataquery";
import { createHadoopService } from "./hadoop";
import { createIdentityService } from "./identity";

export type { LocalCloudOptions } from "./core/server";
export type { LocalCloudControl, IssuedCredential, TransitionSetting } from "./core/control";
export type { FaultSpec, Fault, FaultAction } from "./core/faults";
export type { RequestCounters, RequestLogEntry } from "./core/request-log";
export type { InventoryEntry } from "./core/http";
export { ManagedState, type Progression } from "./core/managed-state";

/** Services in mount order; each is served under `/<name>` on the main port. */
export const SERVICE_FACTORIES: ServiceFactory[] = [
  createObjectStorageService,
  createCacheService,
  createKmsService,
  createDataQueryService,
  createHadoopService,
  createIdentityService,
];

export interface LocalCloud {
  /** Main URL, e.g. http://127.0.0.1:8790 (services under path prefixes, control under /_control). */
  readonly url: string;
  /** http://127.0.0.1:PORT/_control */
  readonly controlUrl: string;
  /** http://127.0.0.1:PORT/_console/: the console, a page for a browser (docs/local-cloud.md#console). */
  readonly consoleUrl: string;
  /** Service name to base URL (`{base_url}` of the specs), e.g. `object-storage`. */
  readonly endpoints: Readonly<Record<string, string>>;
  readonly control: LocalCloudControl;
  /**
   * Where bulk data (object bodies) lives: `{persistPath}.data` when persisting, else a temporary
   * directory removed by `close()`.
   */
  readonly dataDir: string;
  close(): Promise<void>;
}

export async function startLocalCloud(options: LocalCloudOptions = {}): Promise<LocalCloud> {
  const server = new LocalCloudServer(options, SERVICE_FACTORIES);
  const control = installControl(server);
  installConsole(server, control);
  try {
    await server.listen();
  } catch (error) {
    await server.close();
    throw error;
  }
  let closed: Promise<void> | undefined;
  return {
    url: server.url,
    controlUrl: `${server.url}/_control`,
    consoleUrl: `${server.url}/_console/`,
    endpoints: { ...server.endpoints },
    control,
    dataDir: server.dataDir.path,
    close() {
      closed ??= server.close();
      return closed;
    },
  };
}
