/**
 * Reads shared within a process: the key naming what is read and who asks (`listKey`), and a read
 * made once and kept (`readOnce`). Reads of many resources answered from a type's list pages are
 * list-reads.ts.
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
