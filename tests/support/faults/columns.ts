/**
 * The fault matrix's columns and the shape of its rows (re-exported by matrix.ts): the
 * operations, the faults injected through the control API with what each stands for and the cause
 * an error must show, the project a cell runs in, and what a resource type's row declares
 * (fault-types.ts holds the rows).
 */
import type { FaultSpec } from "../../../local-cloud/core/faults";
import type { ProjectClients } from "./project";
import type { Declared, Props, SimStack } from "./sim-stack";

export type Op = "create" | "update" | "read" | "delete";
export const OPS: readonly Op[] = ["create", "update", "read", "delete"];

export type FaultName = "429" | "503b" | "500∞" | "drop" | "LR/fresh" | "LR/reused" | "stuck" | "FAILED" | OwnershipFault;
/** Cells of ownership (ownership.ts): a twin stack, and another stack's name under a fault of the create. */
export type OwnershipFault = "twin" | "name/drop" | "name/5xx" | "name/LR";
export const OWNERSHIP_FAULTS: readonly OwnershipFault[] = ["twin", "name/drop", "name/5xx", "name/LR"];
export const FAULT_NAMES: readonly FaultName[] = ["429", "503b", "500∞", "drop", "LR/fresh", "LR/reused", "stuck", "FAILED", ...OWNERSHIP_FAULTS];

export function isOwnershipFault(f: FaultName): f is OwnershipFault {
  return (OWNERSHIP_FAULTS as readonly string[]).includes(f);
}

/** The control API's fault body: the local cloud's own fault spec. */
export type FaultBody = FaultSpec;

export interface FaultKind {
  /** What is injected on the cell's target operation; absent for the faults that are not a control API fault. */
  spec?: Omit<FaultBody, "service" | "operation">;
  /** What the fault stands for, for docs/reliability.md. */
  meaning: string;
  /** What an error's message must show as the cause. */
  cause: RegExp;
}

export const FAULTS: Readonly<Record<FaultName, FaultKind>> = {
  "429": {
    spec: { action: "error", status: 429, retryAfter: 1, times: 2 },
    meaning: "The operation's request is throttled twice (429 with `Retry-After: 1`), then served.",
    cause: /429|throttl/i,
  },
  "503b": {
    spec: { action: "error", status: 503, times: 2 },
    meaning: "A burst of two 503 answers without Retry-After (not processed, but the client cannot know), then served.",
    cause: /\b503\b/,
  },
  "500∞": {
    spec: { action: "error", status: 500 },
    meaning: "Every attempt of the operation's request answers 500 until the fault is cleared; then the user runs the same command again.",
    cause: /\b500\b/,
  },
  drop: {
    spec: { action: "drop", times: 1 },
    meaning: "The connection is closed before the request is handled: nothing is applied, and the client cannot tell.",
    cause: /closed|socket|reset|may or may not/i,
  },
  "LR/fresh": {
    spec: { action: "lose-response", times: 1 },
    meaning: "The request is applied, then its connection is cut before the answer (a lost answer), on a connection the process opened for it.",
    cause: /closed|socket|reset|may or may not/i,
  },
  "LR/reused": {
    spec: { action: "lose-response", times: 1 },
    meaning: "The same lost answer, after the process's pool has served other requests (a keep-alive connection is there to be reused).",
    cause: /closed|socket|reset|may or may not/i,
  },
  stuck: {
    meaning:
      "The resource's status transition is held (a duration of an hour on the local cloud's clock) and the `timeouts` input is 1s: the wait times out. Then the clock moves past the transition and the user runs `up` again.",
    cause: /within|timed out|timeout/i,
  },
  twin: {
    meaning:
      "Twin stacks: the same stack and project name from two backends (two stack identities), against one cloud project. Both `up`s succeed and make resources of their own; the second stack's `destroy` deletes only its own, then the first's deletes the rest.",
    cause: /$^/,
  },
  "name/drop": {
    spec: { action: "drop", times: 1 },
    meaning:
      "Another stack holds a resource of the name (bucket and key, bucket for a document) this stack declares; the create request is dropped once (not applied). The create is refused, naming `adopt`; the other stack's resource is untouched and its `destroy` deletes it.",
    cause: /ownership marker|adopt/,
  },
  "name/5xx": {
    spec: { action: "error", status: 500, times: 1 },
    meaning: "The same, with one 500 answer to the create request (an unknown outcome for a create that is not idempotent).",
    cause: /ownership marker|adopt/,
  },
  "name/LR": {
    spec: { action: "lose-response", times: 1 },
    meaning: "The same, with the create request's answer lost once (the request reached the service, which refused or ignored it).",
    cause: /ownership marker|adopt/,
  },
  FAILED: {
    meaning:
      "A terminal failure: a cache node (or instance) turned FAILED while the resource was created or changed, a Hadoop create-failure, a query with bad SQL. Then the cause is removed (the node repaired, the failure rule dropped, the SQL fixed) and the user runs `up` again.",
    cause: /FAILED|Terminated|failed/,
  },
};

/** How a resource type meets a FAILED cell. */
export type FailedHow = "node" | "instance" | "hadoop-create-failure" | "bad-sql";

/** What the fault matrix reads the cloud with: a project's id and clients. */
export type ProjectView = Pick<MatrixProject, "id" | "cache" | "dq" | "kms" | "resultBucket">;

export interface MatrixProject extends ProjectClients {
  id: string;
  config: Record<string, string>;
}

/** One resource type's row of the matrix. */
export interface TypeSpec {
  token: string;
  /** The control API service its requests belong to (its module's, from FAULT_FILES in rows.ts). */
  service: string;
  /** Resources it depends on (created before it, in the same stack). */
  deps?: (p: MatrixProject) => Declared[];
  /** The program's arguments; `timeouts` is merged in for the stuck cells. */
  args: (p: MatrixProject, s: SimStack) => Props;
  /** The arguments of the update column; absent: the type has no update that reaches the cloud. */
  updated?: (p: MatrixProject, s: SimStack) => Props;
  /** The operation each column's fault targets (the request that makes the change); absent: n/a. */
  ops: Partial<Record<Op, string>>;
  /** Why a column is n/a. */
  na?: Partial<Record<Op, string>>;
  /** The status transition the stuck cells hold, per column: its kind in the control API's transitions of the row's service. */
  stuck?: Partial<Record<Op, string>>;
  /** How the FAILED cells fail, per column. */
  failed?: Partial<Record<Op, FailedHow>>;
  /** Words that name the resource in a message besides its recorded name and id (a query has no name). */
  noun?: RegExp;
  /**
   * The arguments that collide with another stack's resource of this type (`theirs` holds it as
   * `target`), for the name cells; default: this type's arguments with their generated name. Absent
   * for a type without one (and no `autoName`): the name cells do not apply.
   */
  collides?: (p: MatrixProject, theirs: SimStack) => Props;
  /** Why the name cells do not apply (a type with nothing to collide on). */
  noName?: string;
}
