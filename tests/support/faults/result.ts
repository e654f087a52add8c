/** What one cell of the fault matrix found (cell.ts, ownership.ts). */
import type { Counts } from "./cloud";
import type { FaultName, Op } from "./columns";

export interface MessageCheck {
  resource: boolean;
  operation: boolean;
  cause: boolean;
  /** No JavaScript stack frame in what the engine would print. */
  stackless: boolean;
}

export interface CellResult {
  type: string;
  op: Op;
  fault: FaultName;
  /** Why the cell does not apply. */
  na?: string;
  /** The target operation. */
  operation?: string;
  /** Requests the fault hit. */
  fired: number;
  /** The first run's error (the cell's command failed). */
  error?: string;
  message?: MessageCheck;
  /** After the failed command, before the user's next step. */
  after: Counts;
  /** The user's next step's error, if it failed too. */
  nextError?: string;
  /** After the next step (the cell's verdict). */
  final: Counts;
  converged: boolean;
  /** For 429 cells of changes: a progress line said how many requests were throttled. */
  throttleReported?: boolean;
  /** Ownership cells: one stack took over (holds) what the other made. */
  tookOver?: boolean;
  notes: string[];
  ms: number;
}
