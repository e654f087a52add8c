/**
 * What the tests of the local cloud's object storage over HTTP (tests/local-cloud/objectstorage*.test.ts)
 * share: a local cloud on a fixed clock (`START`) that trusts X-Forwarded-For, reset before each test
 * with a token of project proj0001; the URL of a path on either API (`ext`: /v1_ext, `swift`: /v1);
 * a request with its whole answer (`call`).
 */
import { request } from "undici";
import { startLocalCloud, type LocalCloud } from "../../../local-cloud";

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text: string;
  json: () => any;
}

export async function call(method: string, url: string, options: { headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<Reply> {
  const res = await request(url, { method: method as "GET", headers: options.headers ?? {}, body: options.body ?? null });
  const body = Buffer.from(await res.body.arrayBuffer());
  return { status: res.statusCode, headers: res.headers, body, text: body.toString("utf8"), json: () => JSON.parse(body.toString("utf8")) };
}

export const START = Date.UTC(2025, 0, 10, 12, 0, 0);

export interface ObjectStorageCloud {
  readonly cloud: LocalCloud;
  /** The object storage endpoint. */
  readonly base: string;
  /** The project (account) of this test's token. */
  readonly project: string;
  /** The token's header: one object, refilled before each test, so a test file may destructure it. */
  readonly auth: Record<string, string>;
  ext: (path?: string) => string;
  swift: (path?: string) => string;
  createBucket: (name: string, extra?: Record<string, unknown>) => Promise<Reply>;
  put: (path: string, body: string | Buffer, headers?: Record<string, string>) => Promise<Reply>;
}

/** The local cloud of a test file (its hooks are registered where this is called). */
export function useObjectStorageCloud(): ObjectStorageCloud {
  let cloud: LocalCloud | undefined;
  let base = "";
  let project = "";
  const auth: Record<string, string> = {};
  const json = { "Content-Type": "application/json" };
  const live = (): LocalCloud => {
    if (!cloud) throw new Error("the local cloud is used before beforeAll started it");
    return cloud;
  };

  const ext = (path = ""): string => `${base}/v1_ext/bucket${path}`;
  const swift = (path = ""): string => `${base}/v1/${project}${path}`;
  const createBucket = async (name: string, extra: Record<string, unknown> = {}): Promise<Reply> =>
    call("PUT", ext(), { headers: { ...auth, ...json }, body: JSON.stringify({ name, type: "STANDARD", ...extra }) });
  const put = (path: string, body: string | Buffer, headers: Record<string, string> = {}): Promise<Reply> =>
    call("PUT", swift(path), { headers: { ...auth, ...headers }, body });

  beforeAll(async () => {
    cloud = await startLocalCloud({ port: 0, clock: () => START, trustForwardedFor: true });
    base = cloud.endpoints["object-storage"]!;
  });
  afterAll(async () => {
    await cloud?.close();
  });
  beforeEach(() => {
    const c = live();
    c.control.reset({ credentials: true });
    const issued = c.control.issueCredentials({ projectId: "proj0001" });
    if (issued.kind !== "token") throw new Error("expected a token");
    project = issued.projectId;
    auth["X-Auth-Token"] = issued.token;
  });
  return {
    get cloud() {
      return live();
    },
    get base() {
      return base;
    },
    get project() {
      return project;
    },
    auth,
    ext,
    swift,
    createBucket,
    put,
  };
}
