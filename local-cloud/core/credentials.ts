import { randomBytes, timingSafeEqual } from "node:crypto";
import { randomHex, randomToken } from "./ids";

export type CredentialKind = "token" | "access-key";

export interface Identity {
  projectId: string;
  permissions: readonly string[];
  kind: CredentialKind;
}

export interface Project {
  id: string;
  createdAt: number;
  /** Per-project secret for temp URL signatures (never returned by any API). */
  tempUrlKey: string;
}

export interface TokenRecord {
  kind: "token";
  token: string;
  projectId: string;
  permissions: string[];
  /** The access key the identity service issued it for; absent for a token the control API issued. */
  credentialId?: string;
  /** When it was issued and when it expires (the local cloud's clock, ms); a control API token never expires unless expired by hand. */
  issuedAt?: number;
  expiresAt?: number;
  /** Its access key was revoked. */
  revoked?: boolean;
}

export interface AccessKeyRecord {
  kind: "access-key";
  credentialId: string;
  credentialSecret: string;
  projectId: string;
  permissions: string[];
}

export type CredentialRecord = TokenRecord | AccessKeyRecord;

export interface CredentialSnapshot {
  projects: Project[];
  credentials: CredentialRecord[];
}

/** What the control API says of a token. */
export type TokenState = "active" | "expired" | "revoked";

export interface TokenFilter {
  token?: string;
  projectId?: string;
  credentialId?: string;
}

export const ALL_PERMISSIONS = "*";
const PROJECT_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,31}$/;

export function isValidProjectId(id: string): boolean {
  return PROJECT_ID.test(id);
}

/**
 * `*` grants everything; `storage.*` or `storage.buckets.*` grant a subtree; otherwise exact names.
 */
export function hasPermission(identity: Identity, permission: string): boolean {
  return identity.permissions.some(
    (granted) => granted === ALL_PERMISSIONS || granted === permission || (granted.endsWith(".*") && permission.startsWith(granted.slice(0, -1))),
  );
}

export function tokenMatches(t: TokenRecord, f: TokenFilter): boolean {
  return (
    (f.token === undefined || t.token === f.token) &&
    (f.projectId === undefined || t.projectId === f.projectId) &&
    (f.credentialId === undefined || t.credentialId === f.credentialId)
  );
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** How long the identity service's tokens live unless `--token-ttl` says otherwise: 12 hours, as Keystone's. */
export const DEFAULT_TOKEN_TTL_MS = 12 * 3_600_000;

export class CredentialStore {
  /** The lifetime of the tokens the identity service issues from now on. */
  tokenTtlMs = DEFAULT_TOKEN_TTL_MS;
  private readonly projects = new Map<string, Project>();
  private readonly tokens = new Map<string, TokenRecord>();
  private readonly accessKeys = new Map<string, AccessKeyRecord>();
  private readonly now: () => number;

  constructor(now: () => number) {
    this.now = now;
  }

  ensureProject(id: string): Project {
    let project = this.projects.get(id);
    if (!project) {
      project = { id, createdAt: this.now(), tempUrlKey: randomBytes(32).toString("hex") };
      this.projects.set(id, project);
    }
    return project;
  }

  project(id: string): Project | undefined {
    return this.projects.get(id);
  }

  issue(request: { projectId?: string; kind?: CredentialKind; permissions?: string[] }): CredentialRecord {
    const projectId = request.projectId ?? randomHex(32);
    if (!isValidProjectId(projectId)) throw new RangeError("projectId must be 1-32 characters of letters, digits, - and _");
    this.ensureProject(projectId);
    const permissions = [...(request.permissions ?? [ALL_PERMISSIONS])];
    if ((request.kind ?? "token") === "token") {
      const record: TokenRecord = { kind: "token", token: randomToken(), projectId, permissions };
      this.tokens.set(record.token, record);
      return record;
    }
    const record: AccessKeyRecord = {
      kind: "access-key",
      credentialId: randomHex(32),
      credentialSecret: randomBytes(32).toString("base64url"),
      projectId,
      permissions,
    };
    this.accessKeys.set(record.credentialId, record);
    return record;
  }

  /** An expired or revoked token resolves to nothing, as a token never issued does: every service answers 401. */
  resolveToken(token: string): Identity | undefined {
    const record = this.tokens.get(token);
    if (!record || this.stateOf(record) !== "active") return undefined;
    return { projectId: record.projectId, permissions: record.permissions, kind: "token" };
  }

  stateOf(record: TokenRecord): TokenState {
    if (record.revoked) return "revoked";
    return record.expiresAt !== undefined && this.now() >= record.expiresAt ? "expired" : "active";
  }

  /**
   * The identity service's token for an access key (its project and permissions), living `ttlMs`;
   * undefined when the key is unknown, revoked or the secret wrong.
   */
  issueToken(credentialId: string, secret: string, ttlMs: number): TokenRecord | undefined {
    const key = this.accessKeys.get(credentialId);
    if (!key || !sameSecret(key.credentialSecret, secret)) return undefined;
    const now = this.now();
    const record: TokenRecord = {
      kind: "token",
      token: randomToken(),
      projectId: key.projectId,
      permissions: [...key.permissions],
      credentialId,
      issuedAt: now,
      expiresAt: now + ttlMs,
    };
    this.tokens.set(record.token, record);
    return record;
  }

  /** The record of a token, whatever its state. */
  token(token: string): TokenRecord | undefined {
    return this.tokens.get(token);
  }

  tokenRecords(): TokenRecord[] {
    return [...this.tokens.values()];
  }

  /** Expires now the active tokens that match; returns how many. */
  expireTokens(filter: TokenFilter): number {
    const now = this.now();
    let n = 0;
    for (const t of this.tokens.values()) {
      if (this.stateOf(t) !== "active" || !tokenMatches(t, filter)) continue;
      t.expiresAt = now;
      n++;
    }
    return n;
  }

  /** Deletes an access key and revokes the tokens issued for it; false when there is no such key. */
  revokeAccessKey(credentialId: string): boolean {
    if (!this.accessKeys.delete(credentialId)) return false;
    for (const t of this.tokens.values()) if (t.credentialId === credentialId) t.revoked = true;
    return true;
  }

  resolveAccessKey(credentialId: string, secret: string): Identity | undefined {
    const record = this.accessKeys.get(credentialId);
    if (!record || !sameSecret(record.credentialSecret, secret)) return undefined;
    return { projectId: record.projectId, permissions: record.permissions, kind: "access-key" };
  }

  list(): CredentialRecord[] {
    return [...this.tokens.values(), ...this.accessKeys.values()];
  }

  clear(): void {
    this.projects.clear();
    this.tokens.clear();
    this.accessKeys.clear();
  }

  snapshot(): CredentialSnapshot {
    return { projects: [...this.projects.values()], credentials: this.list() };
  }

  restore(snapshot: CredentialSnapshot | undefined): void {
    this.clear();
    if (!snapshot) return;
    for (const p of snapshot.projects ?? []) this.projects.set(p.id, { ...p });
    for (const c of snapshot.credentials ?? []) {
      if (c.kind === "token") this.tokens.set(c.token, { ...c });
      else this.accessKeys.set(c.credentialId, { ...c });
    }
  }
}
