/** The local cloud's answers the page reads: the console's views and the control API (same origin). */

export interface Fact {
  [name: string]: string | number | boolean | null;
}

export interface TreeNode {
  kind: string;
  id: string;
  label: string;
  status?: string;
  facts?: Fact;
  record?: unknown;
  control?: { kind: string; id: string };
  children?: TreeNode[];
  /** How many children there are (only the first page is in `children`). */
  total?: number;
  preview?: "bytes" | "rows";
}

export interface Overview {
  url: string;
  controlUrl: string;
  consoleUrl: string;
  services: Array<{ name: string; operations: string[]; transitions: Array<{ kind: string; moves: string }> }>;
  projects: Array<{ id: string; resources: number; credentials: number }>;
}

export interface ProjectTree {
  projectId: string;
  services: Array<{ name: string; nodes: TreeNode[] }>;
}

export type Preview =
  | { kind: "bytes"; total: number; offset: number; contentType?: string; text?: string; hex?: string }
  | { kind: "rows"; total: number; offset: number; columns: string[]; rows: string[][] };

export interface LogEntry {
  seq: number;
  time: string;
  service: string;
  operation: string;
  method: string;
  path: string;
  query: string;
  status: number;
  durationMs?: number;
  projectId?: string;
  fault?: string;
}

export interface Fault {
  id: string;
  service?: string;
  operation?: string;
  method?: string;
  pathRegex?: string;
  action: string;
  status?: number;
  latencyMs?: number;
  times?: number;
  fired: number;
  remaining: number | null;
}

export interface Transition {
  service: string;
  kind: string;
  mode: "immediate" | "reads" | "duration";
  reads?: number;
  ms?: number;
}

/** An answer that was not 2xx: its status and the local cloud's message. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (!res.ok) {
    let code = "Error";
    let message = text;
    try {
      const parsed = JSON.parse(text) as { code?: string; message?: string };
      code = parsed.code ?? code;
      message = parsed.message ?? message;
    } catch {
      // Not JSON: the text is the message.
    }
    throw new ApiFailure(res.status, code, message);
  }
  return (text === "" ? undefined : JSON.parse(text)) as T;
}

export const consoleApi = (path: string) => `/_console/api${path}`;
export const controlApi = (path: string) => `/_control${path}`;
