/**
 * The local clouds the malformed-request tests (tests/local-cloud/malformed-*.test.ts) run
 * against, and the run of a service's test: for every route, the requests requests.ts
 * generates (fast-check with a fixed seed), each answer judged, and the local clouds asked after
 * each batch of 25 whether they still answer. The number of requests is in each test's name and
 * printed at the end. Deeper runs: `FUZZ_PER_ROUTE=300 FUZZ_SEED=7` (other seeds),
 * `FUZZ_COLLECT=1` (print every finding instead of stopping at the first), `FUZZ_DEBUG=1` (the
 * statuses each service answered).
 */
import fc from "fast-check";
import { request } from "undici";
import { startLocalCloud, type LocalCloud } from "../../../local-cloud";
import { judge, mutations, send, type Service } from "./requests";

export const PROJECT = "fuzzmalformed";

const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
/** Runs per route; every route gets about this many generated requests. */
const PER_ROUTE = Number(process.env.FUZZ_PER_ROUTE ?? 10);
const BATCH = 25;

export interface MalformedClouds {
  /** The local cloud of the services. */
  readonly cloud: LocalCloud;
  /** The control API, on a local cloud of its own: a fault or transition it accepts must not disturb the services' runs. */
  readonly controlCloud: LocalCloud;
  /** Credential headers of PROJECT: `token` (X-Auth-Token) and `key` (an access key); filled before the tests. */
  readonly creds: Record<string, Record<string, string>>;
  /** The resources each service's routes name, by service key and path slot (kept by its `ensure`). */
  readonly ids: Record<string, Record<string, string>>;
  /** A JSON request that must succeed; its answer, parsed. */
  api: (method: string, url: string, headers: Record<string, string>, body?: unknown) => Promise<any>;
  /** Whether the local cloud of the services holds the resource. */
  exists: (service: string, kind: string, id: string | undefined) => boolean;
  /** Sends the service's generated requests, route by route, and fails on the first wrong answer. */
  run: (service: Service) => Promise<void>;
}

/** A service's test, named by the number of requests it sends. */
export const malformedTitle = (service: Service): string =>
  `${service.routes.length * PER_ROUTE} generated malformed requests over ${service.routes.length} routes get a 4xx with an error body, never a 5xx`;

/** The local clouds of a test file: started before its tests, closed after them. */
export function malformedClouds(): MalformedClouds {
  let cloud: LocalCloud;
  let controlCloud: LocalCloud;
  const creds: Record<string, Record<string, string>> = {};
  const ids: Record<string, Record<string, string>> = { os: {}, cache: {}, kms: {}, dq: {}, hadoop: {}, control: {} };
  let total = 0;

  const api = async (method: string, url: string, headers: Record<string, string>, body?: unknown): Promise<any> => {
    const res = await request(url, {
      method: method as "GET",
      headers: body === undefined ? headers : { ...headers, "Content-Type": "application/json" },
      body: body === undefined ? null : JSON.stringify(body),
    });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${text.slice(0, 200)}`);
    return text ? (JSON.parse(text) as unknown) : undefined;
  };

  const exists = (service: string, kind: string, id: string | undefined): boolean => {
    if (id === undefined) return false;
    try {
      cloud.control.getResource(service, kind, id);
      return true;
    } catch {
      return false;
    }
  };

  beforeAll(async () => {
    cloud = await startLocalCloud({ port: 0, cacheEngine: "simulated", maxBodyBytes: 1024 * 1024 });
    controlCloud = await startLocalCloud({ port: 0, cacheEngine: "simulated" });
    const t = cloud.control.issueCredentials({ projectId: PROJECT });
    const k = cloud.control.issueCredentials({ projectId: PROJECT, kind: "access-key" });
    creds.token = { "X-Auth-Token": t.kind === "token" ? t.token : "" };
    creds.key = k.kind === "access-key" ? { "Credential-ID": k.credentialId, "Credential-Secret": k.credentialSecret } : {};
  });
  afterAll(async () => {
    await cloud?.close();
    await controlCloud?.close();
    console.log(`malformed requests sent: ${total}`);
  });

  async function healthy(): Promise<void> {
    for (const url of [`${cloud.endpoints["object-storage"]!}/info`, `${cloud.controlUrl}`, `${controlCloud.controlUrl}`]) {
      const res = await request(url);
      await res.body.dump();
      expect(res.statusCode).toBe(200);
    }
  }

  const run = async (service: Service): Promise<void> => {
    const runs = service.routes.length * PER_ROUTE;
    let sent = 0;
    const statuses: Record<number, number> = {};
    for (const [index, route] of service.routes.entries()) {
      await fc.assert(
        fc.asyncProperty(mutations(service, route, creds), async (m) => {
          await service.ensure(ids[service.key]!);
          const { url, answer } = await send(service, m, ids[service.key]!);
          statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
          sent++;
          total++;
          if (sent % BATCH === 0) await healthy();
          const wrong = judge(service, m, answer);
          if (wrong && process.env.FUZZ_COLLECT) {
            console.log(`FINDING ${route.op}: ${m.method} ${url.slice(0, 160)} with ${m.label}: ${wrong}`);
            return;
          }
          if (wrong) throw new Error(`${route.op}: ${m.method} ${url.slice(0, 160)} with ${m.label}: ${wrong}`);
        }),
        { numRuns: PER_ROUTE, seed: SEED + index },
      );
    }
    await healthy();
    if (process.env.FUZZ_DEBUG) console.log(service.name, statuses);
    expect(sent).toBe(runs);
  };

  return {
    get cloud() {
      return cloud;
    },
    get controlCloud() {
      return controlCloud;
    },
    creds,
    ids,
    api,
    exists,
    run,
  };
}
