/** The baseline client of the transport and bulk studies: what a client without a pool does. */
import { Agent, request } from "undici";

/** A fresh connection per request, closed after it. */
export async function naive(url: string, init: { method?: string; headers?: Record<string, string> } = {}): Promise<{ status: number; text: string }> {
  const agent = new Agent({ pipelining: 0 });
  try {
    const r = await request(url, { method: (init.method ?? "GET") as "GET", headers: { ...(init.headers ?? {}), connection: "close" }, dispatcher: agent });
    return { status: r.statusCode, text: await r.body.text() };
  } finally {
    await agent.close();
  }
}
