/**
 * krcloud-drift's remedies for the children of a krcloud component (drift/remediation.ts): the
 * program declares the StaticSite, never its bucket, CORS policy or lifecycle rule, so an accept
 * line names the site's inputs that keep the cloud's values, or the ignore rule that accepts what
 * no input keeps; never "set <child>'s X". The engine test runs each line
 * (tests/engine/folder-remedies.test.ts); here, which lines are printed, and that each ignore rule
 * a line gives accepts exactly that drift when written into the ignore file.
 */
import { applyNoiseControl, parseIgnoreFile } from "../../drift/ignore";
import type { PropertyFinding, ResourceResult } from "../../drift/model";
import { addFixes } from "../../drift/remediation";
import { DYNAMIC } from "../support/drift/events";

const ctx = { stack: "dev" };
const SITE = "krcloud:objectstorage:StaticSite";
const urn = (type: string, name: string, dynamic = false) => `urn:pulumi:dev::web::${SITE}$${dynamic ? DYNAMIC(type) : type}::${name}`;
const finding = (path: string, cloud?: unknown, program?: unknown): PropertyFinding => ({
  path,
  origin: "cloud",
  disposition: "new",
  fingerprint: path,
  ...(cloud !== undefined ? { cloud } : {}),
  ...(program !== undefined ? { program } : {}),
});
const up = (u: string) => `pulumi up --stack dev --refresh --run-program --target '${u}'`;

/** The fix of one drifted child, whose inputs refresh read as `cloud`. */
function fixOf(type: string, name: string, properties: PropertyFinding[], cloud: Record<string, unknown>, dynamic = false): ResourceResult {
  const r: ResourceResult = { urn: urn(type, name, dynamic), name, type, status: "drifted", properties };
  addFixes([r], new Map([[r.urn, cloud]]), ctx);
  return r;
}

/** The ignore rules an accept line gives, read as krcloud-drift reads its ignore file. */
function rulesOf(line: string) {
  const items = [...line.matchAll(/under rules: - (\{.*?\})(?=\. |$)/g)].map((m) => `  - ${m[1]}`);
  expect(items.length).toBeGreaterThan(0);
  return parseIgnoreFile(`rules:\n${items.join("\n")}\n`, ".krcloud-driftignore");
}

test("the site's bucket readable from an allow list: accept sets the StaticSite's publicReadAllowIpList (both doors); revert is the targeted up", () => {
  for (const dynamic of [false, true]) {
    const acl = { public: "read-only", publicReadAllowIpList: ["10.0.0.0/8"] };
    const r = fixOf("krcloud:objectstorage:Bucket", "www", [finding("acl.publicReadAllowIpList[0]", "10.0.0.0/8")], { name: "www-1a2b", acl }, dynamic);
    expect(r.fix).toEqual({
      revert: up(r.urn),
      accept: `in the program, set the StaticSite "www"'s publicReadAllowIpList: ["10.0.0.0/8"]`,
      // As for any resource: the cloud's values of the drifted inputs.
      acceptValues: { acl },
    });
  }
});

test("what no input of the site keeps (a private bucket, metadata on it): the line gives the ignore rule, which accepts exactly that drift", () => {
  const r = fixOf("krcloud:objectstorage:Bucket", "www", [finding("acl.public", "deny", "read-only"), finding('metadata["team"]', "web")], {
    acl: { public: "deny" },
    metadata: { team: "web" },
  });
  expect(r.fix!.revert).toBe(up(r.urn));
  expect(r.fix!.accept).not.toMatch(/set www's|set "www"'s/);
  expect(r.fix!.accept).toMatch(/^acl of "www": a StaticSite's bucket is always readable without a token .*; add to \.krcloud-driftignore beside Pulumi\.yaml/);
  const rules = rulesOf(r.fix!.accept);
  expect(rules.map((x) => x.source)).toEqual([`urn ${r.urn}, property acl`, `urn ${r.urn}, property metadata`]);
  applyNoiseControl("dev", [r], rules, new Set(), new Date());
  expect(r.properties.map((p) => p.disposition)).toEqual(["ignored", "ignored"]);
  // A rule for this child accepts nothing of another.
  const other = fixOf("krcloud:objectstorage:Bucket", "docs", [finding("acl.public", "deny", "read-only")], { acl: { public: "deny" } });
  applyNoiseControl("dev", [other], rules, new Set(), new Date());
  expect(other.properties[0]!.disposition).toBe("new");
});

test("the CORS policy: accept sets the StaticSite's corsRules to the cloud's; a policy the site cannot hold (no rule) gives the ignore rule", () => {
  const rules = [{ allowedOrigins: ["https://example.com"], allowedMethods: ["GET", "PUT"] }];
  const r = fixOf("krcloud:objectstorage:BucketCors", "www-cors", [finding("rules[0].allowedOrigins[0]", "https://example.com")], { bucket: "b", rules });
  expect(r.fix!.accept).toBe(`in the program, set the StaticSite "www"'s corsRules: ${JSON.stringify(rules)}`);
  // A policy of any length is written whole: the line is what the user writes.
  const long = Array.from({ length: 10 }, (_, i) => ({ allowedOrigins: [`https://site-${i}.example.com`], allowedMethods: ["GET"], maxAgeSeconds: 3600 }));
  const all = fixOf("krcloud:objectstorage:BucketCors", "www-cors", [finding("rules[9]", long[9])], { bucket: "b", rules: long });
  expect(all.fix!.accept).toBe(`in the program, set the StaticSite "www"'s corsRules: ${JSON.stringify(long)}`);

  const empty = fixOf("krcloud:objectstorage:BucketCors", "www-cors", [finding("rules[0]", undefined, {})], { bucket: "b", rules: [] });
  expect(empty.fix!.accept).toMatch(/^rules of "www-cors": a StaticSite's corsRules cannot be this policy \(at least one rule/);
  expect(rulesOf(empty.fix!.accept).map((x) => x.source)).toEqual([`urn ${empty.urn}, property rules`]);
});

test("the log rule: accept sets logPrefix and logExpirationDays; a rule the site does not write (another id, a second rule) gives the ignore rule", () => {
  const rule = { id: "expire-logs", prefix: "access/", status: "Enabled", expirationDays: 7 };
  const r = fixOf("krcloud:objectstorage:BucketLifecycle", "www-logs", [finding("rules[0].expirationDays", 7, 30)], { bucket: "b", rules: [rule] });
  expect(r.fix!.accept).toBe(`in the program, set the StaticSite "www"'s logPrefix: "access/"; logExpirationDays: 7`);

  for (const rules of [
    [{ ...rule, id: "mine" }],
    [rule, { id: "tmp", prefix: "tmp/", status: "Enabled", expirationDays: 1 }],
    [{ ...rule, status: "Disabled" }],
  ]) {
    const f = fixOf("krcloud:objectstorage:BucketLifecycle", "www-logs", [finding("rules[0].id", "mine", "expire-logs")], { bucket: "b", rules });
    expect(f.fix!.accept).toMatch(/^rules of "www-logs": a StaticSite's lifecycle configuration is one enabled rule "expire-logs"/);
  }
});

test("a child deleted behind Pulumi's back: revert recreates it; accept is the ignore rule of its deletion (the site always declares it)", () => {
  const u = urn("krcloud:objectstorage:BucketCors", "www-cors");
  const r: ResourceResult = { urn: u, name: "www-cors", type: "krcloud:objectstorage:BucketCors", status: "deleted", properties: [], fingerprint: "f" };
  addFixes([r], new Map(), ctx);
  expect(r.fix!.revert).toBe(up(u));
  expect(r.fix!.accept).toMatch(/^the StaticSite "www" declares "www-cors": no program keeps it deleted; add to \.krcloud-driftignore/);
  const rules = rulesOf(r.fix!.accept);
  expect(rules.map((x) => x.source)).toEqual([`urn ${u}`]);
  applyNoiseControl("dev", [r], rules, new Set(), new Date());
  expect(r.disposition).toBe("ignored");
});

test("a resource of the program (no component above it) keeps the remedies it had", () => {
  const u = `urn:pulumi:dev::web::krcloud:objectstorage:Bucket::site`;
  const r: ResourceResult = {
    urn: u,
    name: "site",
    type: "krcloud:objectstorage:Bucket",
    status: "drifted",
    properties: [finding("acl.public", "deny", "read-only")],
  };
  addFixes([r], new Map([[u, { acl: { public: "deny" } }]]), ctx);
  expect(r.fix).toEqual({ revert: up(u), accept: `in the program, set site's acl: {"public":"deny"}`, acceptValues: { acl: { public: "deny" } } });
});
