/**
 * Managed lifecycle for resources with statuses (moto's state_manager): a resource moves from one
 * status to the next either immediately, after N status reads, or after a duration on the local
 * cloud's clock. The progression is chosen per (service, kind) and can be switched by tests.
 */
import type { Progression } from "./wire";

export type { Progression } from "./wire";

interface PendingTransition {
  to: string;
  startedAt: number;
  readsSeen: number;
  progression: Progression;
}

interface ManagedEntry {
  status: string;
  pending?: PendingTransition;
}

export interface ManagedStateSnapshot {
  progressions: Array<{ service: string; kind: string; progression: Progression }>;
  entries: Array<{ service: string; kind: string; id: string; entry: ManagedEntry }>;
}

const IMMEDIATE: Progression = { mode: "immediate" };

function key(...parts: string[]): string {
  return parts.join("\u0000");
}

export function validateProgression(value: Progression): Progression {
  switch (value.mode) {
    case "immediate":
      return { mode: "immediate" };
    case "reads":
      if (!Number.isInteger(value.reads) || value.reads < 0) throw new RangeError("reads must be a non-negative integer");
      return { mode: "reads", reads: value.reads };
    case "duration":
      if (!Number.isFinite(value.ms) || value.ms < 0) throw new RangeError("ms must be a non-negative number");
      return { mode: "duration", ms: value.ms };
    default:
      throw new RangeError("unknown progression mode");
  }
}

export class ManagedState {
  private readonly clock: { now(): number };
  private readonly defaults = new Map<string, Progression>();
  private readonly progressions = new Map<string, { service: string; kind: string; progression: Progression }>();
  private readonly entries = new Map<string, { service: string; kind: string; id: string; entry: ManagedEntry }>();

  constructor(clock: { now(): number }) {
    this.clock = clock;
  }

  /** A service declares the progression its kind uses until a test changes it. */
  defineKind(service: string, kind: string, progression: Progression): void {
    this.defaults.set(key(service, kind), validateProgression(progression));
  }

  setProgression(service: string, kind: string, progression: Progression): void {
    this.progressions.set(key(service, kind), { service, kind, progression: validateProgression(progression) });
  }

  progression(service: string, kind: string): Progression {
    const k = key(service, kind);
    return this.progressions.get(k)?.progression ?? this.defaults.get(k) ?? IMMEDIATE;
  }

  listProgressions(): Array<{ service: string; kind: string; progression: Progression }> {
    return [...this.progressions.values()];
  }

  /**
   * Puts a resource in `from` and schedules the move to `to` with the kind's current progression
   * (captured now, so switching the progression later does not alter transitions in flight).
   * Returns the status a caller sees right away.
   */
  begin(service: string, kind: string, id: string, from: string, to: string): string {
    const progression = this.progression(service, kind);
    const entry: ManagedEntry = { status: from, pending: { to, startedAt: this.clock.now(), readsSeen: 0, progression } };
    this.entries.set(key(service, kind, id), { service, kind, id, entry });
    this.settle(entry, false);
    return entry.status;
  }

  /** Forces a status with no pending transition (drift, or a terminal state). */
  set(service: string, kind: string, id: string, status: string): void {
    this.entries.set(key(service, kind, id), { service, kind, id, entry: { status } });
  }

  /**
   * A status read as the API would serve it: counts towards `reads` progressions. With `reads: N`
   * the first N reads return the old status and read N+1 returns the new one.
   */
  read(service: string, kind: string, id: string): string | undefined {
    const found = this.entries.get(key(service, kind, id));
    if (!found) return undefined;
    this.settle(found.entry, true);
    return found.entry.status;
  }

  /** The current status without counting a read (inventory, control API). */
  peek(service: string, kind: string, id: string): string | undefined {
    const found = this.entries.get(key(service, kind, id));
    if (!found) return undefined;
    this.settle(found.entry, false);
    return found.entry.status;
  }

  pendingTarget(service: string, kind: string, id: string): string | undefined {
    return this.entries.get(key(service, kind, id))?.entry.pending?.to;
  }

  remove(service: string, kind: string, id: string): void {
    this.entries.delete(key(service, kind, id));
  }

  reset(): void {
    this.progressions.clear();
    this.entries.clear();
  }

  snapshot(): ManagedStateSnapshot {
    return {
      progressions: this.listProgressions(),
      entries: [...this.entries.values()].map((e) => ({ ...e, entry: structuredClone(e.entry) })),
    };
  }

  restore(snapshot: ManagedStateSnapshot | undefined): void {
    this.reset();
    if (!snapshot) return;
    for (const p of snapshot.progressions ?? []) this.setProgression(p.service, p.kind, p.progression);
    for (const e of snapshot.entries ?? []) this.entries.set(key(e.service, e.kind, e.id), structuredClone(e));
  }

  private settle(entry: ManagedEntry, countRead: boolean): void {
    const pending = entry.pending;
    if (!pending) return;
    let done: boolean;
    switch (pending.progression.mode) {
      case "immediate":
        done = true;
        break;
      case "reads":
        if (countRead) pending.readsSeen += 1;
        done = pending.readsSeen > pending.progression.reads;
        break;
      case "duration":
        done = this.clock.now() >= pending.startedAt + pending.progression.ms;
        break;
    }
    if (done) {
      entry.status = pending.to;
      delete entry.pending;
    }
  }
}
