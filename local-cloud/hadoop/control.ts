/**
 * The Hadoop service's part of the control API (`/_control/resources/hadoop/{kind}/{id}`, and the
 * generic inventory/reset/snapshot/restore). Kinds: `cluster`, `api-key`, `create-failure`,
 * `request`. Documented in docs/local-cloud-hadoop.md.
 */
import { randomBytes } from "node:crypto";
import { z } from "zod";
import { BadRequest } from "../core/errors";
import { KindControl, type ControlledKind, type InventoryEntry } from "../core/http";
import { parseWith } from "../core/input";
import type { HadoopBackend } from "./backend";
import { ApiKeyImpossible, NoSuchKind, NoSuchResource } from "./errors";
import { KIND, SERVICE, STATUS, apiKeyStatus, isTerminated, type StoredCluster } from "./model";
import { clusterDetail, orNull } from "./views";

const DEFAULT_CREATE_FAILURE = "The cluster could not be created (failure injected through the control API).";
const DEFAULT_JOB_FAILURE = "The job exited with an error (failure injected through the control API).";

const clusterPatch = z.strictObject({
  status: z.enum(Object.values(STATUS)).optional(),
  statusReason: z.string().nullable().optional(),
  workerCnt: z.number().int().min(0).max(1000).optional(),
  isScalable: z.boolean().optional(),
  apiKey: z.string().min(1).nullable().optional(),
  failJob: z.union([z.boolean(), z.string().min(1), z.null()]).optional(),
  failCreate: z.union([z.string().min(1), z.null()]).optional(),
});
const apiKeyPatch = z.strictObject({ apiKey: z.string().min(1).optional() });
const createFailurePatch = z.strictObject({ reason: z.string().min(1).optional() });

const parse = <S extends z.ZodType>(schema: S, value: unknown): z.infer<S> => parseWith(schema, value ?? {});

export class HadoopControl extends KindControl {
  constructor(private readonly backend: HadoopBackend) {
    super();
  }

  private find(id: string): StoredCluster {
    const c = this.backend.clusters.get(id);
    if (!c) throw new NoSuchResource("cluster", id);
    return c;
  }

  inventory(): InventoryEntry[] {
    return [...this.backend.clusters.values()]
      .filter((c) => !isTerminated(this.backend.status(c)))
      .map((c) => ({ service: SERVICE, kind: "cluster", id: c.id, projectId: c.projectId }));
  }

  /** The record as the API shows it (no status read counted), plus what only the control API sees. */
  clusterRecord(c: StoredCluster): Record<string, unknown> {
    return {
      ...clusterDetail(c, this.backend.status(c), this.backend.now()),
      projectId: c.projectId,
      phase: c.phase,
      ...orNull(c, ["apiKey", "apiKeySecurityGroupId", "failJob", "failCreate"]),
      job: c.job ? { ...c.job } : null,
      requests: c.requests.map((r) => ({
        requestId: r.requestId,
        createdAt: r.createdAt,
        requestStatus: this.backend.state.peek(SERVICE, KIND.rerun, r.requestId) ?? null,
      })),
    };
  }

  issueApiKey(c: StoredCluster, key?: string): Record<string, unknown> {
    if (apiKeyStatus(c) === "impossible") throw new ApiKeyImpossible(c.name);
    c.apiKey = key ?? `hsk-${randomBytes(24).toString("base64url")}`;
    c.apiKeySecurityGroupId ??= `sg-hadoop-apikey-${c.id.replace(/-/g, "").slice(0, 12)}`;
    return this.apiKeyRecord(c);
  }

  private apiKeyRecord(c: StoredCluster): Record<string, unknown> {
    return { clusterId: c.id, clusterName: c.name, apiKey: c.apiKey ?? null, apiKeyStatus: apiKeyStatus(c), securityGroupId: c.apiKeySecurityGroupId ?? null };
  }

  private revokeApiKey(c: StoredCluster): void {
    delete c.apiKey;
    delete c.apiKeySecurityGroupId;
  }

  protected readonly kinds = {
    cluster: {
      get: (id: string) => this.clusterRecord(this.find(id)),
      patch: (id: string, patch: unknown) => this.patchCluster(this.find(id), parse(clusterPatch, patch)),
      delete: (id: string) => {
        const c = this.find(id);
        for (const k of Object.values(KIND)) if (k !== KIND.rerun) this.backend.state.remove(SERVICE, k, id);
        for (const r of c.requests) this.backend.state.remove(SERVICE, KIND.rerun, r.requestId);
        this.backend.clusters.delete(id);
      },
    },
    "api-key": {
      get: (id: string) => this.apiKeyRecord(this.withApiKey(id)),
      patch: (id: string, patch: unknown) => this.issueApiKey(this.find(id), parse(apiKeyPatch, patch).apiKey),
      delete: (id: string) => this.revokeApiKey(this.withApiKey(id)),
    },
    "create-failure": {
      get: (id: string) => {
        const reason = this.backend.createFailures.get(id);
        if (reason === undefined) throw new NoSuchResource("create-failure", id);
        return { name: id, reason };
      },
      patch: (id: string, patch: unknown) => {
        const reason = parse(createFailurePatch, patch).reason ?? DEFAULT_CREATE_FAILURE;
        this.backend.createFailures.set(id, reason);
        return { name: id, reason };
      },
      delete: (id: string) => {
        if (!this.backend.createFailures.delete(id)) throw new NoSuchResource("create-failure", id);
      },
    },
    request: {
      get: (id: string) => {
        for (const c of this.backend.clusters.values()) {
          const r = c.requests.find((x) => x.requestId === id);
          if (r) return { clusterId: c.id, ...r, requestStatus: this.backend.state.peek(SERVICE, KIND.rerun, id) ?? null };
        }
        throw new NoSuchResource("request", id);
      },
      patch: readOnlyRequest,
      delete: readOnlyRequest,
    },
  } satisfies Record<string, ControlledKind>;

  /** Hadoop's own NoSuchKind: the control API answers in the service's error format. */
  protected override unknownKind(kind: string): Error {
    return new NoSuchKind(kind);
  }

  /** A cluster that has an API key. */
  private withApiKey(id: string): StoredCluster {
    const c = this.find(id);
    if (c.apiKey === undefined) throw new NoSuchResource("api-key", id);
    return c;
  }

  private patchCluster(c: StoredCluster, p: z.infer<typeof clusterPatch>): Record<string, unknown> {
    if (Object.keys(p).length === 0)
      throw new BadRequest("Nothing to change: give status, statusReason, workerCnt, isScalable, apiKey, failJob or failCreate.");
    if (p.apiKey === null) this.revokeApiKey(c);
    else if (p.apiKey !== undefined) this.issueApiKey(c, p.apiKey);
    if (p.failJob !== undefined) {
      if (p.failJob === false || p.failJob === null) delete c.failJob;
      else c.failJob = p.failJob === true ? DEFAULT_JOB_FAILURE : p.failJob;
    }
    if (p.failCreate !== undefined) this.patchFailCreate(c, p.failCreate);
    if (p.isScalable !== undefined) c.isScalable = p.isScalable;
    if (p.workerCnt !== undefined) this.backend.lifecycle.driftWorkers(c, p.workerCnt);
    if (p.status !== undefined) this.backend.lifecycle.force(c, p.status);
    if (p.statusReason === null) delete c.statusReason;
    else if (p.statusReason !== undefined) c.statusReason = p.statusReason;
    return this.clusterRecord(c);
  }

  /** A cluster still Initializing fails now (its transition restarts towards Terminated); otherwise its next re-run does. */
  private patchFailCreate(c: StoredCluster, reason: string | null): void {
    if (reason === null) {
      delete c.failCreate;
      return;
    }
    if (c.phase === "provisioning") {
      c.provisionFailure = reason;
      this.backend.lifecycle.begin(c, KIND.cluster, STATUS.initializing, STATUS.terminated);
    } else {
      c.failCreate = reason;
    }
  }

  reset(): void {
    this.backend.reset();
  }

  snapshot(): unknown {
    return { clusters: structuredClone([...this.backend.clusters.values()]), createFailures: [...this.backend.createFailures], seq: this.backend.sequence };
  }

  restore(data: unknown): void {
    this.backend.reset();
    const d = data as { clusters?: StoredCluster[]; createFailures?: Array<[string, string]>; seq?: number } | undefined;
    for (const c of d?.clusters ?? []) this.backend.clusters.set(c.id, structuredClone(c));
    for (const [name, reason] of d?.createFailures ?? []) this.backend.createFailures.set(name, reason);
    this.backend.sequence = d?.seq ?? this.backend.clusters.size;
  }
}

function readOnlyRequest(): never {
  throw new BadRequest("Re-run requests are read-only through the control API.");
}
