/**
 * A query's status machine (spec 03 B.7): QUEUED -> RUNNING -> FINISHED or FAILED by managed-state
 * transitions (kind `query`: tests make them immediate, slow or stuck), ABORTED when aborted before
 * it ended. A query runs when it is first read RUNNING, then moves on by its transition to the
 * state its run decided.
 */
import type { ManagedState } from "../core/managed-state";
import { QueryTerminated } from "./errors";
import { SERVICE, type Query } from "./model";

/** Every state a query can be in, in the order the API lists them. */
export const QUERY_STATES = ["QUEUED", "RUNNING", "FINISHED", "ABORTED", "FAILED"];

const KIND = "query";

export class QueryLifecycle {
  constructor(private readonly state: ManagedState) {}

  /** A new query: QUEUED, moving to RUNNING by the kind's progression. */
  queued(q: Query): void {
    this.state.begin(SERVICE, KIND, q.id, "QUEUED", "RUNNING");
  }

  /** The state as served; a query that just reached RUNNING runs now (`run`) and settles by its transition. */
  async read(q: Query, run: () => Promise<void>): Promise<string> {
    let st = this.state.read(SERVICE, KIND, q.id) ?? "FINISHED";
    if (st === "RUNNING" && q.outcome === undefined && q.error === undefined && !q.aborted) {
      await run();
      this.state.begin(SERVICE, KIND, q.id, "RUNNING", q.error !== undefined ? "FAILED" : "FINISHED");
      st = this.state.read(SERVICE, KIND, q.id) ?? st;
    }
    return st;
  }

  /** ABORTED, from `state` (409 once the query has ended). */
  abort(q: Query, state: string): void {
    if (state === "FINISHED" || state === "FAILED" || state === "ABORTED") throw new QueryTerminated(`Query "${q.id}" has already ended (${state}).`);
    q.aborted = true;
    this.state.set(SERVICE, KIND, q.id, "ABORTED");
  }

  /** The query left the list: its state goes with it. */
  forget(q: Query): void {
    this.state.remove(SERVICE, KIND, q.id);
  }
}
