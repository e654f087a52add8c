import fc from "fast-check";
import { request } from "undici";
import { startLocalCloud, type LocalCloud } from "../../local-cloud";

/**
 * Random requests never crash the local cloud or earn a 5xx (no faults are injected here), and it
 * keeps answering afterwards.
 */
describe("local cloud: robustness", () => {
  let cloud: LocalCloud;
  let token: string;
  const project = "fuzzproj";

  beforeAll(async () => {
    cloud = await startLocalCloud({ port: 0, maxBodyBytes: 64 * 1024, clock: () => Date.UTC(2025, 5, 1) });
    const issued = cloud.control.issueCredentials({ projectId: project });
    token = issued.kind === "token" ? issued.token : "";
    const base = cloud.endpoints["object-storage"]!;
    await request(`${base}/v1/${project}/fuzz-bucket`, { method: "PUT", headers: { "X-Auth-Token": token } }).then((r) => r.body.dump());
    await request(`${base}/v1/${project}/fuzz-bucket/seg/1`, { method: "PUT", headers: { "X-Auth-Token": token }, body: "abc" }).then((r) => r.body.dump());
  });
  afterAll(async () => {
    await cloud.close();
  });

  const segment = fc.oneof(
    fc.constantFrom(
      "v1",
      "v1_ext",
      "bucket",
      project,
      "fuzz-bucket",
      "seg",
      "1",
      "cors",
      "lifecycle",
      "info",
      "",
      "other-proj",
      "..",
      "%zz",
      "%2F",
      "%E2%82",
      "%00",
      "a%20b",
      "x".repeat(500),
    ),
    fc.stringMatching(/^[A-Za-z0-9._~!$&'()*+,;=:@-]{0,12}$/),
  );
  const query = fc.oneof(
    fc.constantFrom(
      "",
      "?uploads",
      "?uploadId=2~x&partNumber=1",
      "?uploadId=2~x",
      "?multipart-manifest=put",
      "?multipart-manifest=get",
      "?multipart-manifest=delete",
      "?temp_url&temp_url_expires=99999999999",
      "?temp_url_sig=abc&temp_url_expires=1",
      "?format=json&delimiter=/&limit=5",
      "?format=xml&marker=%zz",
      "?limit=-1",
      "?offset=abc&limit=1000000000000000000000",
      "?prefix=a&include=b",
    ),
    fc.stringMatching(/^\?[A-Za-z0-9=&%_-]{0,20}$/),
  );
  const headerValue = fc.stringMatching(/^[\x20-\x7e]{0,40}$/);
  const headers = fc.record(
    {
      "content-type": fc.constantFrom("application/json", "application/xml", "text/plain", "application/directory", ""),
      destination: fc.oneof(fc.constantFrom("/fuzz-bucket/copy", "fuzz-bucket/x", "/", "%zz/a", "/nobucket/a"), headerValue),
      "x-object-manifest": fc.oneof(fc.constantFrom("fuzz-bucket/seg/", "/", "%zz"), headerValue),
      "x-object-meta-fuzz": headerValue,
      "x-container-meta-f": headerValue,
      "x-remove-container-meta-fuzz": headerValue,
      origin: fc.oneof(fc.constantFrom("https://a.example.com", "null"), headerValue),
      "access-control-request-method": fc.constantFrom("GET", "PUT", "PATCH", ""),
      range: fc.oneof(fc.constantFrom("bytes=0-1", "bytes=5-2", "bytes=-0", "bytes=99-"), headerValue),
      etag: headerValue,
    },
    { requiredKeys: [] },
  );
  const auth = fc.oneof(
    { arbitrary: fc.constant<string | undefined>("__valid__"), weight: 6 },
    { arbitrary: fc.constant<string | undefined>(undefined), weight: 1 },
    { arbitrary: headerValue, weight: 1 },
  );
  const body = fc.oneof(
    fc.constant(""),
    fc.constant('{"name":"fuzz-made","type":"STANDARD"}'),
    fc.constant('{"cors":[{"allowed_origins":["https://*.x.com"],"allowed_methods":["GET"]}]}'),
    fc.constant('[{"path":"fuzz-bucket/seg/1"}]'),
    fc.constant('<CompleteMultipartUpload><Part><PartNumber>1</PartNumber><ETag>"x"</ETag></Part></CompleteMultipartUpload>'),
    fc.constant(
      "<LifecycleConfiguration><Rule><Prefix>a</Prefix><Status>Enabled</Status><Expiration><Days>1</Days></Expiration></Rule></LifecycleConfiguration>",
    ),
    fc.constant('<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>'),
    fc.json(),
    fc.string({ maxLength: 200 }),
    fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a).toString("latin1")),
  );
  const pathBody = fc.oneof(
    { arbitrary: fc.array(segment, { maxLength: 6 }).map((parts) => `/${parts.join("/")}`), weight: 1 },
    {
      weight: 4,
      arbitrary: fc
        .tuple(
          fc.constantFrom(`/v1/${project}/fuzz-bucket`, "/v1_ext/bucket/fuzz-bucket", `/v1/${project}`, "/v1_ext/bucket"),
          fc.array(segment, { maxLength: 3 }),
        )
        .map(([head, tail]) => (tail.length > 0 ? `${head}/${tail.join("/")}` : head)),
    },
  );
  const method = fc.constantFrom("GET", "HEAD", "PUT", "POST", "DELETE", "COPY", "MOVE", "OPTIONS", "PATCH");
  const prefix = fc.oneof({ arbitrary: fc.constant("/object-storage"), weight: 8 }, { arbitrary: fc.constantFrom("/_control", ""), weight: 1 });

  test("random methods, paths, headers and bodies never get a 5xx", async () => {
    const base = cloud.url;
    const statuses: Record<number, number> = {};
    await fc.assert(
      fc.asyncProperty(method, prefix, pathBody, query, auth, headers, body, async (m, p, rest, q, t, h, b) => {
        const path = `${p}${rest}${q}`;
        if (path.startsWith("/_control") && m !== "GET") return;
        const sent: Record<string, string> = {};
        for (const [k, v] of Object.entries(h)) sent[k] = v;
        if (t !== undefined) sent["x-auth-token"] = t === "__valid__" ? token : t;
        const res = await request(`${base}${path}`, {
          method: m as "GET",
          headers: sent,
          body: m === "GET" || m === "HEAD" ? null : b,
        });
        await res.body.dump();
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        if (res.statusCode >= 500) throw new Error(`${m} ${path} -> ${res.statusCode}`);
      }),
      { numRuns: Number(process.env.FUZZ_RUNS ?? 200), seed: Number(process.env.FUZZ_SEED ?? 20250601) },
    );
    const info = await request(`${cloud.endpoints["object-storage"]!}/info`);
    expect(info.statusCode).toBe(200);
    await info.body.dump();
    expect(cloud.control.counters().total).toBeGreaterThan(100);
    // The fuzz must reach handlers, not only bounce off authentication.
    const reached = Object.entries(statuses).filter(([status]) => Number(status) !== 401 && Number(status) !== 404);
    if (process.env.FUZZ_DEBUG) console.log(statuses, cloud.control.counters().byOperation);
    expect(reached.reduce((sum, [, n]) => sum + n, 0)).toBeGreaterThan(40);
  });

  test("malformed JSON and XML bodies are 400, not 500", async () => {
    const base = cloud.endpoints["object-storage"]!;
    const send = async (m: string, path: string, contentType: string, payload: string): Promise<number> => {
      const res = await request(`${base}${path}`, { method: m as "PUT", headers: { "X-Auth-Token": token, "Content-Type": contentType }, body: payload });
      await res.body.dump();
      return res.statusCode;
    };
    expect(await send("PUT", "/v1_ext/bucket", "application/json", '{"name":')).toBe(400);
    expect(await send("PUT", "/v1_ext/bucket", "application/json", "[]")).toBe(400);
    expect(await send("PUT", "/v1_ext/bucket/fuzz-bucket/cors", "application/json", "null")).toBe(400);
    expect(await send("PUT", "/v1_ext/bucket/fuzz-bucket/lifecycle", "application/xml", "<LifecycleConfiguration><Rule>")).toBe(400);
    expect(await send("PUT", "/v1_ext/bucket/fuzz-bucket/lifecycle", "application/xml", "")).toBe(400);
    expect(await send("PUT", `/v1/${project}/fuzz-bucket/m?multipart-manifest=put`, "application/json", '{"x":')).toBe(400);
    expect(await send("PUT", `/v1/${project}/fuzz-bucket/m?uploadId=nope`, "application/xml", "<<<")).toBe(400);
  });
});
