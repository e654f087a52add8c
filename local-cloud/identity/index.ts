/**
 * The identity service, read as OpenStack Keystone v3 (the specs leave token issuance "not shown";
 * docs/api-assumptions.md records the reading): an access key is an application credential, and
 * `POST /v3/auth/tokens` issues a token for it, its value in the `X-Subject-Token` header, the body
 * naming its project, its lifetime and the catalog of the local cloud's services. Tokens expire on
 * the local cloud's clock after the token TTL (`--token-ttl`); the control API expires tokens now,
 * revokes keys and counts the tokens issued (docs/local-cloud.md).
 */
import { controlledBy, type ServiceDefinition } from "../core/http";
import type { CoreContext } from "../core/server";
import { IdentityBackend } from "./backend";
import { IdentityControl } from "./control";
import { SERVICE } from "./model";
import { identityRoutes } from "./routes";

export function createIdentityService(core: CoreContext): ServiceDefinition {
  return {
    name: SERVICE,
    catalogType: "identity",
    routes: identityRoutes(new IdentityBackend(core)),
    ...controlledBy(new IdentityControl()),
  };
}
