/**
 * BucketCors and BucketLifecycle share one definition (provider/objectstorage/bucket-document.ts):
 * what read makes of what the service may normalise, against the rules recorded before.
 */
import { alignCorsRules } from "../../provider/objectstorage/bucket-cors";
import { alignLifecycleRules } from "../../provider/objectstorage/bucket-lifecycle";

describe("lifecycle rules read back", () => {
  const logs = { prefix: "logs/", status: "Enabled" as const, expirationDays: 30 };
  const tmp = { id: "tmp", prefix: "tmp/", status: "Enabled" as const, expirationDate: "2030-01-01T00:00:00.000Z" };

  test("a generated id of a rule recorded without one is dropped; a given id is kept", () => {
    expect(alignLifecycleRules([{ ...logs, id: "rule-8f3a" }, tmp], [logs, tmp])).toEqual([logs, tmp]);
  });

  test("the recorded order is kept when the service answers the rules as a set in another order", () => {
    expect(alignLifecycleRules([tmp, { ...logs, id: "gen-1" }], [logs, tmp])).toEqual([logs, tmp]);
  });

  test("dates come back in the spec's .000Z shape whatever ISO 8601 shape the service used", () => {
    expect(alignLifecycleRules([{ ...tmp, expirationDate: "2030-01-01T00:00:00Z" }], [tmp])).toEqual([tmp]);
    expect(alignLifecycleRules([{ ...tmp, expirationDate: "2030-01-01T09:00:00+09:00" }], undefined)).toEqual([tmp]);
  });

  test("a rule changed or added behind our back is reported (drift), after the recorded ones", () => {
    const added = { id: "x", prefix: "x/", status: "Disabled" as const, expirationDays: 1 };
    expect(alignLifecycleRules([added, { ...logs, expirationDays: 7 }, tmp], [logs, tmp])).toEqual([tmp, added, { ...logs, expirationDays: 7 }]);
  });

  test("read from the id alone (import) keeps every id the service reports", () => {
    expect(alignLifecycleRules([{ ...logs, id: "gen-1" }], undefined)).toEqual([{ ...logs, id: "gen-1" }]);
  });
});

describe("CORS rules read back", () => {
  const rule = {
    allowedOrigins: ["https://a.example", "https://b.example"],
    allowedMethods: ["GET" as const, "PUT" as const],
    allowedHeaders: ["Content-Type", "X-Auth-Token"],
  };

  test("origins, methods and headers reordered or re-cased by the service read as recorded", () => {
    const echoed = {
      allowedOrigins: ["https://b.example", "https://a.example"],
      allowedMethods: ["PUT" as const, "GET" as const],
      allowedHeaders: ["x-auth-token", "content-type"],
    };
    expect(alignCorsRules([echoed], [rule])).toEqual([rule]);
  });

  test("rule order is the service's (it evaluates rules in order), and a changed set is drift", () => {
    const other = { allowedOrigins: ["https://c.example"], allowedMethods: ["GET" as const] };
    expect(alignCorsRules([other, rule], [rule, other])).toEqual([other, rule]);
    const changed = { ...rule, allowedMethods: ["GET" as const] };
    expect(alignCorsRules([changed], [rule])).toEqual([changed]);
  });
});
