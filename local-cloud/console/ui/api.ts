/** The local cloud's answers the page reads: the console's views and the control API (same origin). */
import type { SentNode, TransitionKind } from "../../core/wire/index.js";

export interface Overview {
  url: string;
  controlUrl: string;
  consoleUrl: string;
  services: Array<{ name: string; operations: string[]; transitions: TransitionKind[] }>;
  projects: Array<{ id: string; resources: number; credentials: number }>;
}

export interface ProjectTree {
  projectId: string;
  services: Array<{ name: string; nodes: SentNode[] }>;
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
