import type { FaultAction } from "./faults";

export interface RequestLogEntry {
  seq: number;
  /** ISO 8601 time on the local cloud's (virtual) clock. */
  time: string;
  service: string;
  operation: string;
  method: string;
  /** Service-relative path, without the query string. */
  path: string;
  query: string;
  /** Status sent, or would have been sent for `lose-response`; 0 for `drop`. */
  status: number;
  requestId: string;
  fault?: FaultAction;
}

/** The last `capacity` service requests (control API calls are not logged) and per-operation counters. */
export class RequestLog {
  private readonly capacity: number;
  private entries: RequestLogEntry[] = [];
  private seq = 0;
  private total = 0;
  private byOperation: Record<string, number> = {};

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
    return full;
  }

  since(seq: number): RequestLogEntry[] {
    return this.entries.filter((e) => e.seq > seq);
  }

  get lastSeq(): number {
    return this.seq;
  }

  counters(): { total: number; byOperation: Record<string, number> } {
    return { total: this.total, byOperation: { ...this.byOperation } };
  }

  /** Sequence numbers keep increasing across resets so `since` cursors held by tests stay valid. */
  reset(): void {
    this.entries = [];
    this.total = 0;
    this.byOperation = {};
  }
}
