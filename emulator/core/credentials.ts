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

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export class CredentialStore {
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

  resolveToken(token: string): Identity | undefined {
    const record = this.tokens.get(token);
    return record && { projectId: record.projectId, permissions: record.permissions, kind: "token" };
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
