/** The identity service's answer (Keystone v3): a token's project, lifetime and the catalog of the local cloud's services. */
import type { TokenRecord } from "../core/credentials";

export const SERVICE = "identity";

export interface CatalogService {
  type: string;
  name: string;
  url: string;
}

/** Keystone's time stamps have microseconds: `2025-01-02T03:04:05.000000Z`. */
const iso = (ms: number): string => new Date(ms).toISOString().replace(/Z$/, "000Z");

/** The body of a token answer; `now` stands for the issue time of a token that has none (a static one). */
export function tokenBody(t: TokenRecord, now: number, catalog: CatalogService[], region: string): Record<string, unknown> {
  return {
    token: {
      methods: ["application_credential"],
      issued_at: iso(t.issuedAt ?? now),
      ...(t.expiresAt !== undefined ? { expires_at: iso(t.expiresAt) } : {}),
      project: { id: t.projectId, name: t.projectId, domain: { id: "default", name: "Default" } },
      ...(t.credentialId !== undefined ? { application_credential: { id: t.credentialId, restricted: true } } : {}),
      roles: [{ name: "member" }],
      catalog: catalog.map((c) => ({
        type: c.type,
        name: c.name,
        id: c.name,
        // Object storage's URL ends with the account, as OpenStack catalogs have it (`/v1/{project}`).
        endpoints: [
          {
            id: `${c.name}-public`,
            interface: "public",
            region,
            region_id: region,
            url: c.type === "object-store" ? `${c.url}/v1/${t.projectId}` : c.url,
          },
        ],
      })),
    },
  };
}
