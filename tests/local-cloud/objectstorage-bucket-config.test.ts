/**
 * The local cloud's object storage over HTTP, as spec 01 describes it: a bucket's CORS policy
 * (set, validated, answered in preflights and on requests) and lifecycle configuration (stored as
 * XML, validated, and run as the clock passes midnight UTC).
 */
import { call, useObjectStorageCloud } from "../support/local-cloud/objectstorage";

describe("local cloud: object storage (spec 01)", () => {
  const os = useObjectStorageCloud();
  const { auth, ext, swift, createBucket, put } = os;
  const json = { "Content-Type": "application/json" };

  describe("CORS", () => {
    const policies = {
      cors: [
        {
          allowed_origins: ["https://*.example.com"],
          allowed_methods: ["GET", "PUT"],
          allowed_headers: ["X-Auth-Token", "Content-Type"],
          expose_headers: ["Etag"],
          max_age_seconds: 600,
        },
        { allowed_origins: ["https://a.com:443"], allowed_methods: ["GET"] },
      ],
    };

    test("GET without configuration is 200 {cors: []}; PUT and POST set; invalid policies are 400", async () => {
      await createBucket("cors-bucket");
      const empty = await call("GET", ext("/cors-bucket/cors"), { headers: { ...auth, ...json } });
      expect([empty.status, empty.json()]).toEqual([200, { cors: [] }]);
      const set = await call("PUT", ext("/cors-bucket/cors"), { headers: { ...auth, ...json }, body: JSON.stringify(policies) });
      expect(set.status).toBe(200);
      expect(set.json().cors[1]).toEqual({ allowed_origins: ["https://a.com:443"], allowed_methods: ["GET"], allowed_headers: [], expose_headers: [] });
      expect((await call("POST", ext("/cors-bucket/cors"), { headers: { ...auth, ...json }, body: JSON.stringify(policies) })).status).toBe(200);
      const policy = (p: Record<string, unknown>) => ({ cors: [{ allowed_origins: ["https://ok.com"], allowed_methods: ["GET"], ...p }] });
      const invalid = [
        { cors: Array.from({ length: 11 }, () => policies.cors[1]) },
        policy({ allowed_origins: ["ftp://x.com"] }),
        policy({ allowed_origins: ["example.com"] }),
        policy({ allowed_origins: ["https://*.*.com"] }),
        policy({ allowed_origins: [`https://${"a".repeat(200)}.com`] }),
        policy({ allowed_methods: ["PATCH"] }),
        policy({ allowed_methods: [] }),
      ];
      for (const body of invalid) {
        const res = await call("PUT", ext("/cors-bucket/cors"), { headers: { ...auth, ...json }, body: JSON.stringify(body) });
        expect(res.status).toBe(400);
        expect(res.json().code).toBe("InvalidCorsConfiguration");
      }
      expect((await call("GET", ext("/cors-bucket/cors"), { headers: { ...auth, ...json } })).json()).toEqual(set.json());
    });

    test("preflight: 204 with Access-Control-* for a matching origin (wildcard), 403 otherwise; explicit port rule", async () => {
      await createBucket("pre-bucket");
      await put("/pre-bucket/file.txt", "cors");
      const preflight = (origin: string, method = "GET", headers = "X-Auth-Token") =>
        call("OPTIONS", swift("/pre-bucket/file.txt"), {
          headers: { Origin: origin, "Access-Control-Request-Method": method, "Access-Control-Request-Headers": headers },
        });
      expect((await preflight("https://app.example.com")).status).toBe(403);
      await call("PUT", ext("/pre-bucket/cors"), { headers: { ...auth, ...json }, body: JSON.stringify(policies) });
      const ok = await preflight("https://app.example.com", "PUT", "x-auth-token, content-type");
      expect(ok.status).toBe(204);
      expect(ok.headers).toMatchObject({
        "access-control-allow-origin": "https://app.example.com",
        "access-control-allow-methods": "GET, PUT",
        "access-control-allow-headers": "x-auth-token, content-type",
        "access-control-expose-headers": "Etag",
        "access-control-max-age": "600",
        "access-control-allow-credentials": "true",
      });
      expect((await preflight("https://app.example.com", "DELETE")).status).toBe(403);
      expect((await preflight("https://app.example.com", "GET", "X-Custom")).status).toBe(403);
      expect((await preflight("https://example.org")).status).toBe(403);
      expect((await preflight("http://app.example.com")).status).toBe(403);
      expect((await preflight("https://a.com", "GET", "")).status).toBe(403);
      expect((await preflight("https://a.com:443", "GET", "")).status).toBe(204);
      const actual = await call("GET", swift("/pre-bucket/file.txt"), { headers: { ...auth, Origin: "https://cdn.example.com" } });
      expect(actual.headers["access-control-allow-origin"]).toBe("https://cdn.example.com");
      expect(actual.headers["access-control-expose-headers"]).toBe("Etag");
      const foreign = await call("GET", swift("/pre-bucket/file.txt"), { headers: { ...auth, Origin: "https://a.com" } });
      expect(foreign.headers["access-control-allow-origin"]).toBeUndefined();
    });
  });

  describe("lifecycle", () => {
    const xml = (rules: string) => `<?xml version="1.0" encoding="UTF-8"?><LifecycleConfiguration>${rules}</LifecycleConfiguration>`;
    const putLifecycle = (bucket: string, body: string) =>
      call("PUT", ext(`/${bucket}/lifecycle`), { headers: { ...auth, "Content-Type": "application/xml" }, body });

    test("PUT echoes, GET returns the same XML, entities in Prefix round-trip; invalid rules are 400; none is 404", async () => {
      await createBucket("lc-bucket");
      const none = await call("GET", ext("/lc-bucket/lifecycle"), { headers: auth });
      expect([none.status, none.json().code]).toEqual([404, "NoSuchLifecycleConfiguration"]);
      const prefix = "a&apos;b&quot;c&amp;d&lt;e&gt;f&#13;g&#10;h";
      const body = xml(
        `<Rule><ID>r1</ID><Prefix>${prefix}</Prefix><Status>Enabled</Status><Expiration><Days>3</Days></Expiration></Rule>` +
          `<Rule><ID>r2</ID><Filter><Prefix>logs/</Prefix></Filter><Status>Disabled</Status><Expiration><Date>2025-02-01T00:00:00.000Z</Date></Expiration></Rule>`,
      );
      const echoed = await putLifecycle("lc-bucket", body);
      expect(echoed.status).toBe(200);
      expect(echoed.headers["content-type"]).toMatch(/^application\/xml/);
      expect(echoed.text).toContain(`<Prefix>${prefix}</Prefix>`);
      expect(echoed.text).toContain("<Filter><Prefix>logs/</Prefix></Filter>");
      const got = await call("GET", ext("/lc-bucket/lifecycle"), { headers: auth });
      expect(got.text).toBe(echoed.text);
      const rule = (inner: string) => xml(`<Rule>${inner}</Rule>`);
      const invalid = [
        rule("<Prefix>x</Prefix><Status>Enabled</Status><Expiration><Days>0</Days></Expiration>"),
        rule("<Prefix>x</Prefix><Status>Enabled</Status><Expiration><Days>1.5</Days></Expiration>"),
        rule("<Prefix>x</Prefix><Status>Enabled</Status><Expiration><Date>2025-02-01T00:00:00Z</Date></Expiration>"),
        rule("<Prefix>x</Prefix><Status>Enabled</Status><Expiration><Date>2025-02-30T00:00:00.000Z</Date></Expiration>"),
        rule("<Prefix>x</Prefix><Status>Enabled</Status><Expiration><Days>1</Days><Date>2025-02-01T00:00:00.000Z</Date></Expiration>"),
        rule("<Prefix>x</Prefix><Status>On</Status><Expiration><Days>1</Days></Expiration>"),
        rule("<Status>Enabled</Status><Expiration><Days>1</Days></Expiration>"),
        rule(`<ID>${"i".repeat(256)}</ID><Prefix>x</Prefix><Status>Enabled</Status><Expiration><Days>1</Days></Expiration>`),
        xml(
          "<Rule><ID>d</ID><Prefix>x</Prefix><Status>Enabled</Status><Expiration><Days>1</Days></Expiration></Rule><Rule><ID>d</ID><Prefix>y</Prefix><Status>Enabled</Status><Expiration><Days>1</Days></Expiration></Rule>",
        ),
        xml(""),
      ];
      for (const bad of invalid) expect((await putLifecycle("lc-bucket", bad)).status).toBe(400);
      const malformed = await putLifecycle("lc-bucket", "<LifecycleConfiguration><Rule>");
      expect([malformed.status, malformed.json().code]).toEqual([400, "MalformedXML"]);
      expect((await call("DELETE", ext("/lc-bucket/lifecycle"), { headers: auth })).status).toBe(200);
      expect((await call("GET", ext("/lc-bucket/lifecycle"), { headers: auth })).status).toBe(404);
    });

    test("expiry runs when the clock passes 00:00 UTC: Days counts from creation, only Enabled rules, only under the prefix", async () => {
      await createBucket("exp-bucket");
      await put("/exp-bucket/tmp/old.txt", "x");
      await put("/exp-bucket/keep/old.txt", "x");
      await put("/exp-bucket/logs/a.txt", "x");
      await putLifecycle(
        "exp-bucket",
        xml(
          "<Rule><ID>tmp</ID><Prefix>tmp/</Prefix><Status>Enabled</Status><Expiration><Days>2</Days></Expiration></Rule>" +
            "<Rule><ID>logs</ID><Filter><Prefix>logs/</Prefix></Filter><Status>Disabled</Status><Expiration><Days>1</Days></Expiration></Rule>",
        ),
      );
      const names = async () => (await call("GET", swift("/exp-bucket"), { headers: auth })).text;
      os.cloud.control.advanceClock({ days: 1 });
      expect(await names()).toBe("keep/old.txt\nlogs/a.txt\ntmp/old.txt\n");
      os.cloud.control.advanceClock({ days: 1 });
      expect(await names()).toBe("keep/old.txt\nlogs/a.txt\ntmp/old.txt\n");
      os.cloud.control.advanceClock({ ms: 12 * 3600_000 });
      expect(await names()).toBe("keep/old.txt\nlogs/a.txt\n");
    });

    test("Date rules expire everything under the prefix once the date has passed at a day boundary", async () => {
      await createBucket("date-bucket");
      await put("/date-bucket/a.txt", "x");
      await putLifecycle(
        "date-bucket",
        xml("<Rule><Prefix></Prefix><Status>Enabled</Status><Expiration><Date>2025-01-12T00:00:00.000Z</Date></Expiration></Rule>"),
      );
      await call("POST", `${os.cloud.controlUrl}/clock/advance`, { headers: json, body: JSON.stringify({ days: 1 }) });
      expect((await call("HEAD", swift("/date-bucket/a.txt"), { headers: auth })).status).toBe(200);
      await call("POST", `${os.cloud.controlUrl}/clock/advance`, { headers: json, body: JSON.stringify({ ms: 12 * 3600_000 }) });
      expect((await call("HEAD", swift("/date-bucket/a.txt"), { headers: auth })).status).toBe(404);
    });
  });
});
