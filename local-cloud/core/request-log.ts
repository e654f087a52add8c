import type { RequestLogEntry } from "./wire";

export type { RequestLogEntry } from "./wire";

/** Request counters since the last reset. */
export interface RequestCounters {
  total: number;
  /** Per `service.Operation`. */
  byOperation: Record<string, number>;
  /**
   * Requests that could change state: any method but GET, HEAD and OPTIONS, whatever the answer
   * (faulted and refused ones too). `byProject` counts those that presented a valid credential.
   */
  mutating: { total: number; byProject: Record<string, number> };
}

const READ_ONLY_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The last `capacity` service requests (control API calls are not logged) and the counters. */
export class RequestLog {
  private readonly capacity: number;
  private entries: RequestLogEntry[] = [];
  private seq = 0;
  private total = 0;
  private byOperation: Record<string, number> = {};
  private mutating = 0;
  private mutatingByProject: Record<string, number> = {};

  constructor(capacity = 10_000) {
    this.capacity = capacity;
  }

  record(entry: Omit<RequestLogEntry, "seq">): RequestLogEntry {
    this.seq += 1;
    const full = { seq: this.seq, ...entry };
    this.entries.push(full);
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
    this.total += 1;
    const key = `${entry.service}.${entry.operation}`;
    this.byOperation[key] = (this.byOperation[key] ?? 0) + 1;
    if (!READ_ONLY_METHODS.has(entry.method.toUpperCase())) {
      this.mutating += 1;
      if (entry.projectId !== undefined) this.mutatingByProject[entry.projectId] = (this.mutatingByProject[entry.projectId] ?? 0) + 1;
    }
    return full;
  }

  since(seq: number): RequestLogEntry[] {
    return this.entries.filter((e) => e.seq > seq);
  }

  get lastSeq(): number {
    return this.seq;
  }

  counters(): RequestCounters {
    return {
      total: this.total,
      byOperation: { ...this.byOperation },
      mutating: { total: this.mutating, byProject: { ...this.mutatingByProject } },
    };
  }

  /** Sequence numbers keep increasing across resets so `since` cursors held by tests stay valid. */
  reset(): void {
    this.entries = [];
    this.total = 0;
    this.byOperation = {};
    this.mutating = 0;
    this.mutatingByProject = {};
  }
}
