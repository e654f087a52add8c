/**
 * The identity service, read as OpenStack Keystone v3 (the seeds leave token issuance "not shown";
 * docs/api-assumptions.md records the reading): an access key is an application credential, and
 * `POST /v3/auth/tokens` issues a token for it, its value in the `X-Subject-Token` header, the body
 * naming its project, its lifetime and the catalog of the local cloud's services. Tokens expire on
 * the local cloud's clock after the token TTL (`--token-ttl`); the control API expires tokens now,
 * revokes keys and counts the tokens issued (docs/local-cloud.md).
 */
import { z } from "zod";
import type { TokenRecord } from "../core/credentials";
import { BadRequest } from "../core/errors";
import { header, jsonResponse, type RequestContext, type ServiceDefinition } from "../core/http";
import { jsonObjectBody, parseWith } from "../core/input";
import type { CoreContext } from "../core/server";
import { NoSuchKind, TokenNotFound, Unauthorized } from "./errors";

export const SERVICE = "identity";

const authBody = z.object({
  auth: z.object({
    identity: z.object({
      methods: z.array(z.string()).refine((m) => m.includes("application_credential"), 'methods must include "application_credential"'),
      application_credential: z.object({ id: z.string().min(1), secret: z.string().min(1) }),
    }),
  }),
});

const refused = () => new Unauthorized();

export function createIdentityService(core: CoreContext): ServiceDefinition {
  const iso = (ms: number) => new Date(ms).toISOString().replace(/Z$/, "000Z");
  const tokenBody = (t: TokenRecord) => ({
    token: {
      methods: ["application_credential"],
      issued_at: iso(t.issuedAt ?? core.clock.now()),
      ...(t.expiresAt !== undefined ? { expires_at: iso(t.expiresAt) } : {}),
      project: { id: t.projectId, name: t.projectId, domain: { id: "default", name: "Default" } },
      ...(t.credentialId !== undefined ? { application_credential: { id: t.credentialId, restricted: true } } : {}),
      roles: [{ name: "member" }],
      catalog: core.catalog().map((c) => ({
        type: c.type,
        name: c.name,
        id: c.name,
        // Object storage's URL ends with the account, as OpenStack catalogs have it (`/v1/{project}`).
        endpoints: [
          {
            id: `${c.name}-public`,
            interface: "public",
            region: core.region,
            region_id: core.region,
            url: c.type === "object-store" ? `${c.url}/v1/${t.projectId}` : c.url,
          },
        ],
      })),
    },
  });
  return {
    name: SERVICE,
    catalogType: "identity",
    routes: [
      {
        methods: ["POST"],
        path: "/v3/auth/tokens",
        operation: "IssueToken",
        handler: (ctx: RequestContext) => {
          const body = parseWith(authBody, jsonObjectBody(ctx, { mediaTypes: ["application/json"] }));
          const { id, secret } = body.auth.identity.application_credential;
          const token = core.credentials.issueToken(id, secret, core.credentials.tokenTtlMs);
          if (!token) throw refused();
          core.changed();
          return jsonResponse(201, tokenBody(token), { "X-Subject-Token": token.token });
        },
      },
      {
        methods: ["GET", "HEAD"],
        path: "/v3/auth/tokens",
        operation: "ValidateToken",
        handler: (ctx: RequestContext) => {
          if (ctx.presented.kind !== "valid" || ctx.presented.identity.kind !== "token") throw refused();
          const subject = header(ctx, "x-subject-token");
          if (subject === undefined) throw new BadRequest("The X-Subject-Token header is required.");
          const t = core.credentials.token(subject);
          if (!t || core.credentials.stateOf(t) !== "active") throw new TokenNotFound();
          return jsonResponse(200, tokenBody(t), { "X-Subject-Token": t.token });
        },
      },
    ],
    errorFormat: () => "json",
    inventory: () => [],
    getResource: (kind) => {
      throw new NoSuchKind(kind, ": see /_control/tokens");
    },
    patchResource: (kind) => {
      throw new NoSuchKind(kind);
    },
    deleteResource: (kind) => {
      throw new NoSuchKind(kind);
    },
    // Tokens are credentials: kept by the credential store, with the keys they were issued for.
    reset: () => undefined,
    snapshot: () => undefined,
    restore: () => undefined,
  };
}
