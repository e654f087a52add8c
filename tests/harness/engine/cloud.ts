/**
 * The local cloud of the engine tests and its control API, spoken over HTTP as documented in
 * docs/local-cloud.md (re-exported by index.ts): a project with its own credentials, what an
 * example needs in the cloud before it runs, and the stack config of a program talking to it.
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import type { ConfigMap } from "@pulumi/pulumi/automation";
import { startLocalCloud, type FaultSpec, type InventoryEntry, type LocalCloud } from "../../../local-cloud";

// The control API's bodies as the local cloud types them: the harness speaks HTTP, but the shapes are one.
export type { FaultSpec, InventoryEntry } from "../../../local-cloud";

export class ControlApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: string,
    what: string,
  ) {
    super(`${what}: ${status} ${body.slice(0, 300)}`);
  }
}

/** The local cloud's control API, spoken over HTTP. */
export class Control {
  constructor(readonly controlUrl: string) {}

  private async call<T>(method: string, route: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.controlUrl}${route}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (!res.ok) throw new ControlApiError(res.status, text, `${method} /_control${route}`);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  async issueToken(projectId: string): Promise<string> {
    const r = await this.call<{ token: string }>("POST", "/credentials", { projectId, kind: "token" });
    return r.token;
  }

  async issueAccessKey(projectId: string): Promise<{ credentialId: string; credentialSecret: string }> {
    return this.call("POST", "/credentials", { projectId, kind: "access-key" });
  }

  async inventory(projectId?: string): Promise<InventoryEntry[]> {
    const r = await this.call<{ resources: InventoryEntry[] }>("GET", "/inventory");
    return projectId === undefined ? r.resources : r.resources.filter((e) => e.projectId === projectId);
  }

  private resourcePath(service: string, kind: string, id: string): string {
    return `/resources/${encodeURIComponent(service)}/${encodeURIComponent(kind)}/${id.split("/").map(encodeURIComponent).join("/")}`;
  }

  async getResource<T = Record<string, unknown>>(service: string, kind: string, id: string): Promise<T | undefined> {
    try {
      return await this.call<T>("GET", this.resourcePath(service, kind, id));
    } catch (e) {
      if (e instanceof ControlApiError && e.status === 404) return undefined;
      throw e;
    }
  }

  async patchResource<T = Record<string, unknown>>(service: string, kind: string, id: string, patch: Record<string, unknown>): Promise<T> {
    return this.call<T>("PATCH", this.resourcePath(service, kind, id), patch);
  }

  async deleteResource(service: string, kind: string, id: string): Promise<void> {
    await this.call("DELETE", this.resourcePath(service, kind, id));
  }

  /** How a kind of resource settles (`PUT /transitions`): at once, after N reads, or after a duration. */
  async setTransition(t: { service: string; kind: string; mode: "immediate" | "reads" | "duration"; reads?: number; ms?: number }): Promise<void> {
    await this.call("PUT", "/transitions", t);
  }

  async addFault(spec: FaultSpec): Promise<{ id: string; fired: number }> {
    return this.call("POST", "/faults", spec);
  }

  async faults(): Promise<{ id: string; fired: number; remaining: number | null }[]> {
    return (await this.call<{ faults: { id: string; fired: number; remaining: number | null }[] }>("GET", "/faults")).faults;
  }

  async removeFault(id: string): Promise<void> {
    await this.call("DELETE", `/faults/${encodeURIComponent(id)}`);
  }

  async counters(): Promise<{ total: number; byOperation: Record<string, number> }> {
    return this.call("GET", "/counters");
  }
}

/** A local cloud in this process plus a project with its own credentials. */
export interface CloudProject {
  cloud: LocalCloud;
  control: Control;
  projectId: string;
  token: string;
  /** An access key of the project: `krcloud:credentialId` and (secret) `krcloud:credentialSecret`. */
  credentialId: string;
  credentialSecret: string;
}

export async function startCloud(): Promise<LocalCloud> {
  return startLocalCloud({ port: 0 });
}

/** A fresh project (own ID, own token) on `cloud`, so inventories of tests never mix. */
export async function newProject(cloud: LocalCloud, label: string): Promise<CloudProject> {
  const control = new Control(cloud.controlUrl);
  const projectId = `${label.replace(/[^A-Za-z0-9]/g, "").slice(0, 16)}${randomBytes(6).toString("hex")}`.slice(0, 32);
  const token = await control.issueToken(projectId);
  const { credentialId, credentialSecret } = await control.issueAccessKey(projectId);
  return { cloud, control, projectId, token, credentialId, credentialSecret };
}

export interface SetupResource {
  service: string;
  kind: string;
  id: string;
  patch: Record<string, unknown>;
}

/**
 * What an example needs in the local cloud before it runs (`local-cloud.setup.json` beside its
 * Pulumi.yaml: a KMS key, a database instance), created through the control API for `p`'s project.
 * Returns what was created, so "nothing left behind" checks can set it apart from the stack's own.
 */
export async function applyLocalCloudSetup(p: CloudProject, programDir: string): Promise<SetupResource[]> {
  const file = path.join(programDir, "local-cloud.setup.json");
  if (!fs.existsSync(file)) return [];
  const setup = JSON.parse(fs.readFileSync(file, "utf8")) as { resources: SetupResource[] };
  for (const r of setup.resources) await p.control.patchResource(r.service, r.kind, r.id, { projectId: p.projectId, ...r.patch });
  return setup.resources;
}

/**
 * Stack config that names nothing but an access key and the identity service (issue 26): no token,
 * no project, no endpoint; the provider has tokens issued and takes the rest from them.
 */
export function accessKeyConfig(cloud: LocalCloud, key: { credentialId: string; credentialSecret: string }, extra: ConfigMap = {}): ConfigMap {
  return {
    "krcloud:credentialId": { value: key.credentialId },
    "krcloud:credentialSecret": { value: key.credentialSecret, secret: true },
    "krcloud:identityEndpoint": { value: `${cloud.url}/identity` },
    ...extra,
  };
}

/** What the identity service says of the tokens it issued (`GET /_control/tokens`), for one key or all. */
export async function tokensIssued(cloud: LocalCloud, credentialId?: string): Promise<number> {
  const q = credentialId === undefined ? "" : `?credentialId=${encodeURIComponent(credentialId)}`;
  const r = (await (await fetch(`${cloud.controlUrl}/tokens${q}`)).json()) as { issued: number };
  return r.issued;
}

/** Stack config for a program talking to `p`: the provider settings, secrets as secrets. */
export function providerConfig(p: CloudProject, extra: ConfigMap = {}): ConfigMap {
  return {
    "krcloud:localCloudUrl": { value: p.cloud.url },
    "krcloud:projectId": { value: p.projectId },
    "krcloud:authToken": { value: p.token, secret: true },
    "krcloud:credentialId": { value: p.credentialId },
    "krcloud:credentialSecret": { value: p.credentialSecret, secret: true },
    ...extra,
  };
}
