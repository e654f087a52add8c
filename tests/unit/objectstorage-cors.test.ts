import { expandCorsRules, flattenCorsRules, isInvalidArgument, type CorsRule } from "../../client/objectstorage";

const full: CorsRule = {
  allowedOrigins: ["https://*.example.com", "http://localhost:8080"],
  allowedMethods: ["GET", "PUT"],
  allowedHeaders: ["X-Auth-Token", "Content-Type"],
  exposeHeaders: ["ETag"],
  maxAgeSeconds: 600,
};

test("camelCase rules map to the spec's snake_case wire fields and back", () => {
  const wire = expandCorsRules([full, { allowedOrigins: ["https://a.example"], allowedMethods: ["DELETE"] }]);
  expect(wire).toEqual({
    cors: [
      {
        allowed_origins: ["https://*.example.com", "http://localhost:8080"],
        allowed_methods: ["GET", "PUT"],
        allowed_headers: ["X-Auth-Token", "Content-Type"],
        expose_headers: ["ETag"],
        max_age_seconds: 600,
      },
      { allowed_origins: ["https://a.example"], allowed_methods: ["DELETE"] },
    ],
  });
  expect(flattenCorsRules(JSON.parse(JSON.stringify(wire)))).toEqual([full, { allowedOrigins: ["https://a.example"], allowedMethods: ["DELETE"] }]);
});

test("reading drops empty and null optional fields (get returns allowed_headers even when unset), so a read equals what was written", () => {
  const read = flattenCorsRules({
    cors: [{ allowed_origins: ["https://a.example"], allowed_methods: ["get"], allowed_headers: [], expose_headers: null, max_age_seconds: null, extra: 1 }],
  });
  expect(read).toEqual([{ allowedOrigins: ["https://a.example"], allowedMethods: ["GET"] }]);
});

test("no policy reads as an empty list: {cors: []}, {cors: null}, an empty body", () => {
  expect(flattenCorsRules({ cors: [] })).toEqual([]);
  expect(flattenCorsRules({ cors: null })).toEqual([]);
  expect(flattenCorsRules(undefined)).toEqual([]);
});

test("a numeric-string max_age_seconds is read as a number", () => {
  expect(flattenCorsRules({ cors: [{ allowed_origins: ["http://x"], allowed_methods: ["GET"], max_age_seconds: "30" }] })[0]!.maxAgeSeconds).toBe(30);
});

test("more than 10 rules are rejected before sending (spec 2.4)", () => {
  const eleven = Array.from({ length: 11 }, () => ({ allowedOrigins: ["http://x"], allowedMethods: ["GET" as const] }));
  expect(() => expandCorsRules(eleven)).toThrow(/at most 10/);
  try {
    expandCorsRules(eleven);
  } catch (e) {
    expect(isInvalidArgument(e)).toBe(true);
  }
  expect(expandCorsRules([])).toEqual({ cors: [] });
});
