import { serviceOver, type ServiceDefinition } from "../core/http";
import type { CoreContext } from "../core/server";
import { KmsBackend } from "./backend";
import { kmsBrowser } from "./browse";
import { KmsControl } from "./control";
import { SERVICE } from "./model";
import { kmsRoutes } from "./routes";

/** Key management (spec 03 A) under `/kms`; its keys are made through the control API (control.ts). */
export function createKmsService(_core: CoreContext): ServiceDefinition {
  return serviceOver(SERVICE, "key-manager", new KmsBackend(), { routes: kmsRoutes, control: KmsControl, browse: kmsBrowser });
}
