/**
 * Reads answered from list pages. A refresh or a drift check reads every resource of a stack, up to
 * the engine's parallelism at a time: one GET each. Where a type's list answer carries everything
 * its read needs (`readsFromList` on its definition), the reads of that type that arrive together
 * (within `windowMs`) are answered from one walk of its list pages instead, and the walk's answer
 * serves the reads that arrive while it is under way and for `keepMs` after it, so that a refresh of
 * a thousand resources makes one or a few walks, not one walk per batch.
 *
 * The rules (docs/reliability.md, "Reads from list pages"):
 * - a read that arrives alone (no walk under way or kept) is its own GET, as before;
 * - a resource missing from the listing is read by its own GET before it is called gone: nothing is
 *   reported deleted on the strength of a listing alone (it may have been made after the walk);
 * - any create, update or delete of the type in this process drops what is kept of its walks, so
 *   a read that follows a write never sees a listing from before it;
 * - a walk that fails sends each of its reads to its own GET, which fails or succeeds on its own;
 * - the walks are kept per type and per who asks (endpoint, project, the credential's id, digested:
 *   never the secret), in this process only (globalThis: the module may load twice in one process);
 * - `KRCLOUD_READS_FROM_LIST=off` turns it off (every read is its own GET: make bench's "before").
 *
 * Batching is dataloader's (npm): one batch per window, of the ids read in it.
 */
import DataLoader from "dataloader";
import { endpointOf, SERVICES, type ServiceName } from "../../client/core";
import { listKey } from "./coalesce";
import type { AnyDefinition, Context, ListReads } from "./resource";

/** The environment variable that turns reads from list pages off (`off`). */
export const READS_FROM_LIST_ENV = "KRCLOUD_READS_FROM_LIST";

export interface ListReadTiming {
  /** How long a batch stays open for more reads of the type (the engine sends its reads a few ms apart). */
  windowMs: number;
  /** How long a walk's answer keeps serving reads after it came, unless a write of the type drops it first. */
  keepMs: number;
  /** The clock the keep is measured by. */
  now(): number;
}

const DEFAULT_TIMING: ListReadTiming = { windowMs: 5, keepMs: 5_000, now: () => Date.now() };

/** How a read was answered: from a listed record, or by its own GET (alone, or not in the listing). */
type Found = { record: unknown } | "own";

interface Ask {
  id: string;
  ctx: Context;
  reads: ListReads<Record<string, unknown>>;
}

interface Walk {
  answer: Promise<ReadonlyMap<string, unknown>>;
  /** When the answer came; absent while the walk is under way. */
  answeredAt?: number;
}

interface Scope {
  loader: DataLoader<Ask, Found>;
  walk?: Walk;
}

interface State {
  scopes: Map<string, Scope>;
  timing: ListReadTiming;
}

const STATE = Symbol.for("krcloud.list-reads");

function state(): State {
  const g = globalThis as unknown as Record<symbol, State | undefined>;
  return (g[STATE] ??= { scopes: new Map(), timing: DEFAULT_TIMING });
}

/** Sets the window, the keep and the clock (tests, benchmarks); returns the previous timing. */
export function setListReadTiming(timing: Partial<ListReadTiming>): ListReadTiming {
  const s = state();
  const before = s.timing;
  s.timing = { ...before, ...timing };
  return before;
}

/** The declaration of `def` when it reads from its list and that is not turned off. */
export function listReadsOf(def: AnyDefinition): ListReads<Record<string, unknown>> | undefined {
  const r = def.readsFromList;
  if (r === undefined || "no" in r || process.env[READS_FROM_LIST_ENV] === "off") return undefined;
  return r;
}

/**
 * The read of `id`: from the type's list pages when other reads of the type arrive with it (or a
 * walk is under way or kept), otherwise, and when the listing does not have it, `def.read`.
 */
export async function readFromListOrOwn(
  def: AnyDefinition,
  ctx: Context,
  id: string,
  olds: Record<string, unknown>,
): Promise<Record<string, unknown> | undefined> {
  const reads = listReadsOf(def);
  if (reads === undefined) return def.read(ctx, id, olds);
  const found = await scopeOf(def, ctx).loader.load({ id, ctx, reads });
  return found === "own" ? def.read(ctx, id, olds) : reads.outputs(ctx, id, found.record, olds);
}

/** A write of `token` in this process: what is kept of its walks no longer stands for the cloud. */
export function forgetListings(token: string): void {
  const { scopes } = state();
  for (const key of [...scopes.keys()]) if (key.startsWith(`${token}\u0000`)) scopes.delete(key);
}

function scopeOf(def: AnyDefinition, ctx: Context): Scope {
  const st = ctx.settings;
  const service = def.token.split(":")[1] as ServiceName;
  const endpoint = SERVICES.includes(service) ? endpointOf(st, service) : "";
  const key = `${def.token}\u0000${listKey("list-reads", endpoint, st.projectId, st.credentialId ?? st.authToken)}`;
  const { scopes, timing } = state();
  let scope = scopes.get(key);
  if (!scope) {
    const s: Scope = {
      loader: new DataLoader<Ask, Found>((asks) => answer(s, asks), {
        cache: false,
        batchScheduleFn: (dispatch) => setTimeout(dispatch, timing.windowMs),
      }),
    };
    scopes.set(key, s);
    scope = s;
  }
  return scope;
}

/** One batch: from the kept or running walk, a new walk for two reads or more, or each read's own GET. */
async function answer(scope: Scope, asks: readonly Ask[]): Promise<Found[]> {
  const { timing } = state();
  const kept = scope.walk;
  const usable = kept && (kept.answeredAt === undefined || timing.now() - kept.answeredAt < timing.keepMs) ? kept : undefined;
  if (!usable && asks.length === 1) return ["own"];
  const walk = usable ?? startWalk(scope, asks[0]!);
  try {
    const all = await walk.answer;
    return asks.map((a) => (all.has(a.id) ? { record: all.get(a.id) } : "own"));
  } catch {
    // The walk failed: each read asks on its own, and says why if it fails too.
    return asks.map(() => "own");
  }
}

function startWalk(scope: Scope, first: Ask): Walk {
  const walk: Walk = { answer: first.reads.walk(first.ctx) };
  scope.walk = walk;
  walk.answer.then(
    () => (walk.answeredAt = state().timing.now()),
    () => {
      if (scope.walk === walk) scope.walk = undefined;
    },
  );
  return walk;
}
