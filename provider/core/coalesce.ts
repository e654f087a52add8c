/**
 * Reads that arrive together share one list call. A refresh or a drift check reads every resource,
 * up to --parallel at a time; where a type's read is answered by a list call (the data sources have
 * no single GET), each read listing everything makes N list calls for N resources. Here the reads
 * of one key that arrive within a few milliseconds form a batch, and the batch sends one list call
 * whose answer serves those reads only.
 *
 * Safe by construction: the batch closes before its list call goes out, so every read it serves
 * began before the request was sent (a read after a change sees the change); nothing is kept once
 * the answer is handed out (no cache across reads or operations); a resource missing from the
 * shared answer is looked up again by the read's own call before it is called gone.
 */

import { createHash } from "node:crypto";

/** A batch key: the list operation and who asks (endpoint, project, credential), the credential digested. */
export function listKey(operation: string, endpoint: string, projectId: string | undefined, credential: string | undefined): string {
  const who = createHash("sha256")
    .update(credential ?? "")
    .digest("hex")
    .slice(0, 16);
  return `${operation}\u0000${endpoint}\u0000${projectId ?? ""}\u0000${who}`;
}

const ONCE = Symbol.for("krcloud.coalesce.once");

/**
 * A read made once per process and kept (a preview's check reading what does not change within a
 * run, such as a default parameter group's catalogue): every caller with `key` shares the first
 * call's answer. A failure is not kept, so the next caller reads again. `key` names what is read
 * and who asks (see `listKey`).
 */
export function readOnce<T>(key: string, read: () => Promise<T>): Promise<T> {
  const g = globalThis as unknown as Record<symbol, Map<string, Promise<unknown>> | undefined>;
  const kept = (g[ONCE] ??= new Map());
  let answer = kept.get(key) as Promise<T> | undefined;
  if (!answer) {
    answer = read();
    kept.set(key, answer);
    answer.catch(() => kept.delete(key));
  }
  return answer;
}

/** How long a batch stays open for other reads: the engine sends its reads a few ms apart. */
export const BATCH_WINDOW_MS = 5;

const OPEN = Symbol.for("krcloud.coalesce.open");

/**
 * The answer of `list`, shared by the calls with the same `key` that arrive within the batch
 * window: one call of `list` per batch. `key` names the list and who asks (endpoint, project,
 * credential id; never a secret).
 */
export function sharedList<T>(key: string, list: () => Promise<T>, windowMs = BATCH_WINDOW_MS): Promise<T> {
  const g = globalThis as unknown as Record<symbol, Map<string, Promise<unknown>> | undefined>;
  const open = (g[OPEN] ??= new Map());
  let batch = open.get(key) as Promise<T> | undefined;
  if (!batch) {
    batch = new Promise<void>((resolve) => setTimeout(resolve, windowMs)).then(() => {
      // Closed before the request goes out: a read from now on waits for a list sent after it.
      open.delete(key);
      return list();
    });
    open.set(key, batch);
  }
  return batch;
}

/**
 * A read through a shared list: the item `pick` finds in the batch's answer, or, when it is not
 * there (made after the list was answered, or paged out), the read's own lookup, so that nothing
 * is called gone on the strength of a list shared with others.
 */
export async function readThroughList<T, I>(
  key: string,
  list: () => Promise<T>,
  pick: (answer: T) => I | undefined,
  own: () => Promise<I | undefined>,
): Promise<I | undefined> {
  const found = pick(await sharedList(key, list));
  return found !== undefined ? found : own();
}
