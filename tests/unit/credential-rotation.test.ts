/**
 * Credentials after a rotation (issue 38 item 4; provider/core/rotation.ts, credential-guard.ts):
 * the configuration Pulumi hands a provider carries access key A, which the identity service
 * (scripted, on loopback) now refuses, and the environment holds key B. With krcloud:projectId set,
 * the provider takes B once its token names that project, says so once, and the operation runs
 * with it; without a project, nothing is read and the error says where B is and the one command
 * that takes it, per operation; a refusal an operation meets gets the same advice; a key that is
 * still valid keeps its precedence over the environment.
 */
import { apiErrorFor, closeAllPools, resetTokens, resolveSettings, type Settings } from "../../client/core";
import { currentSettings, setStackConfig } from "../../provider/core/config";
import { guardCredentials, resetCredentialGuard } from "../../provider/core/credential-guard";
import type { BuiltProvider } from "../../provider/core/provider";
import { environmentAlternative, resetRotation, rotationAdvice } from "../../provider/core/rotation";
import { jsonReply, useScriptedServer } from "../support/servers/scripted";

const srv = useScriptedServer();
const OLD = { id: "key-old", secret: "old-SECRET-1234" };
const NEW = { id: "key-new", secret: "new-SECRET-5678" };
const ENV_KEYS = [
  "KRCLOUD_CREDENTIAL_ID",
  "KRCLOUD_CREDENTIAL_SECRET",
  "KRCLOUD_AUTH_TOKEN",
  "KRCLOUD_TOKEN_COMMAND",
  "KRCLOUD_PROJECT_ID",
  "KRCLOUD_IDENTITY_ENDPOINT",
];
const saved: Record<string, string | undefined> = {};

/** The identity service: refuses every key but `valid`; a token of `valid` names `project`. */
function identity(valid: string[], project = "proj-a"): { asked: string[] } {
  const asked: string[] = [];
  srv.route = (r) => {
    const id = (JSON.parse(r.body) as { auth: { identity: { application_credential: { id: string } } } }).auth.identity.application_credential.id;
    asked.push(id);
    if (!valid.includes(id)) return jsonReply(401, { error: { code: 401, message: "The request you have made requires authentication." } });
    return jsonReply(201, { token: { expires_at: "2099-01-01T00:00:00Z", project: { id: project } } }, { "x-subject-token": `tok-${id}-SECRET` });
  };
  return { asked };
}

/** The stack configuration Pulumi hands over (key A), and the environment (key B). */
function configure(extra: Record<string, string> = {}): void {
  const config: Record<string, string> = {
    "krcloud:credentialId": OLD.id,
    "krcloud:credentialSecret": OLD.secret,
    "krcloud:identityEndpoint": `${srv.origin}/identity`,
    "krcloud:objectstorageEndpoint": `${srv.origin}/os`,
    ...extra,
  };
  setStackConfig({ get: (k) => config[k] });
  process.env.KRCLOUD_CREDENTIAL_ID = NEW.id;
  process.env.KRCLOUD_CREDENTIAL_SECRET = NEW.secret;
}

/** A provider whose operations record the access key they run with. */
function recording(): { p: BuiltProvider; used: string[] } {
  const used: string[] = [];
  const op = async () => {
    used.push(currentSettings().credentialId ?? "none");
    return { id: "x", props: {}, outs: {}, inputs: {} };
  };
  const p = { configure: async () => undefined, check: op, diff: op, create: op, read: op, update: op, delete: op } as unknown as BuiltProvider;
  return { p: guardCredentials(p), used };
}

beforeAll(() => {
  for (const k of ENV_KEYS) saved[k] = process.env[k];
});
beforeEach(() => {
  for (const k of ENV_KEYS) delete process.env[k];
  resetTokens();
  resetRotation();
  resetCredentialGuard();
});
afterAll(async () => {
  for (const k of ENV_KEYS) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  await closeAllPools();
});

test("with krcloud:projectId set, a refused key is replaced by the environment's once its token names the project; said once", async () => {
  const { asked } = identity([NEW.id]);
  configure({ "krcloud:projectId": "proj-a" });
  const { p, used } = recording();
  const warnings: string[] = [];
  const opts = { warn: (m: string) => warnings.push(m) };
  await p.read("x", {}, opts);
  await p.delete("y", {}, opts);
  await p.read("z", {}, opts);
  expect(used).toEqual([NEW.id, NEW.id, NEW.id]);
  expect(asked).toEqual([OLD.id, NEW.id]);
  expect(warnings).toHaveLength(1);
  expect(warnings[0]).toContain(
    `the access key "${OLD.id}" (krcloud:credentialId and krcloud:credentialSecret, as Pulumi handed the provider its configuration) was refused`,
  );
  expect(warnings[0]).toContain(
    `This run uses the access key "${NEW.id}" (KRCLOUD_CREDENTIAL_ID and KRCLOUD_CREDENTIAL_SECRET) instead, of the same project "proj-a"`,
  );
  expect(warnings[0]).toContain("pulumi config rm-all krcloud:credentialId krcloud:credentialSecret");
  for (const s of [OLD.secret, NEW.secret]) expect(warnings[0]).not.toContain(s);
});

test("the environment's key of another project is refused before anything is read, naming it", async () => {
  identity([NEW.id], "proj-other");
  configure({ "krcloud:projectId": "proj-a" });
  const { p, used } = recording();
  const e = (await p.read("x", {}, { warn: () => undefined }).catch((err: unknown) => err)) as Error;
  expect(e.message).toMatch(
    new RegExp(
      `the token from the access key "${NEW.id}" \\(KRCLOUD_CREDENTIAL_ID and KRCLOUD_CREDENTIAL_SECRET\\) belongs to project "proj-other", not to project "proj-a"`,
    ),
  );
  expect(used).toEqual([]);
});

test("without a project, nothing is read: refresh and destroy fail naming the environment's key and their own command", async () => {
  const { asked } = identity([NEW.id]);
  configure();
  const { p, used } = recording();
  const read = (await p.read("x", {}).catch((err: unknown) => err)) as Error;
  const del = (await p.delete("x", {}).catch((err: unknown) => err)) as Error;
  expect(used).toEqual([]);
  expect(asked).toEqual([OLD.id]);
  for (const [e, cmd] of [
    [read, "pulumi refresh"],
    [del, "pulumi destroy"],
  ] as const) {
    expect(e.message).toMatch(
      new RegExp(`^the access key "${OLD.id}" \\(krcloud:credentialId and krcloud:credentialSecret\\) was refused by the identity service`),
    );
    expect(e.message).toContain(`Without --run-program, \`${cmd}\` configures the provider as the last \`pulumi up\` recorded it`);
    expect(e.message).toContain(
      `The environment holds another access key "${NEW.id}" (KRCLOUD_CREDENTIAL_ID and KRCLOUD_CREDENTIAL_SECRET): run \`${cmd} --run-program\``,
    );
    expect(e.message).toContain("krcloud takes the environment's access key in place of a refused one by itself only when krcloud:projectId is set");
    // One line for the engine (provider.ts forEngine), and no secret.
    expect(e.stack).toBe(e.message);
    for (const s of [OLD.secret, NEW.secret]) expect(e.message).not.toContain(s);
  }
  expect(read.message).not.toContain("pulumi destroy");
});

test("a key the identity service still takes keeps its precedence over the environment's", async () => {
  const { asked } = identity([OLD.id, NEW.id]);
  configure();
  const { p, used } = recording();
  await p.read("x", {});
  await p.create({});
  expect(used).toEqual([OLD.id, OLD.id]);
  expect(asked).toEqual([OLD.id]);
});

test("a refusal an operation meets gets the advice of its command", async () => {
  srv.route = () => jsonReply(500, {});
  setStackConfig({ get: (k) => ({ "krcloud:authToken": "tok-SECRET-1", "krcloud:localCloudUrl": srv.origin })[k] });
  const refused = () =>
    apiErrorFor({
      service: "objectstorage",
      operation: "GetBucket",
      method: "GET",
      path: "/v1/p/b",
      status: 401,
      hint: "the auth token from krcloud:authToken was refused (401)",
    });
  const fail = async () => Promise.reject(refused());
  const p = guardCredentials({ check: fail, create: fail, read: fail, update: fail, delete: fail } as unknown as BuiltProvider);
  const e = (await p.read("b", {}).catch((err: unknown) => err)) as Error;
  expect(e.message).toContain(
    "Without --run-program, `pulumi refresh` configures the provider as the last `pulumi up` recorded it, not as the stack is configured now: with a new token in the stack's configuration since, run `pulumi refresh --run-program`.",
  );
  process.env.KRCLOUD_AUTH_TOKEN = "tok-SECRET-2";
  const c = (await p.check({}, {}).catch((err: unknown) => err)) as Error;
  expect(c.message).toContain(
    "The environment holds a token (KRCLOUD_AUTH_TOKEN), but the stack's configuration comes first: remove the refused token from it (`pulumi config rm-all krcloud:authToken`).",
  );
});

describe("rotation.ts", () => {
  const settings = (env: Record<string, string>): { configured: Settings; alt: Settings | undefined } => {
    const config: Record<string, string> = { credentialId: OLD.id, credentialSecret: OLD.secret, localCloudUrl: "http://127.0.0.1:1" };
    const configured = resolveSettings({}, (k) => config[k], env);
    return { configured, alt: environmentAlternative(configured, (k) => config[k], env) };
  };

  test("the environment's credentials are an alternative only when they differ from the configured ones", () => {
    expect(settings({}).alt).toBeUndefined();
    expect(settings({ KRCLOUD_CREDENTIAL_ID: OLD.id, KRCLOUD_CREDENTIAL_SECRET: OLD.secret }).alt).toBeUndefined();
    const { alt } = settings({ KRCLOUD_CREDENTIAL_ID: NEW.id, KRCLOUD_CREDENTIAL_SECRET: NEW.secret });
    expect([alt?.credentialId, alt?.origins?.credentialId, alt?.identityEndpoint]).toEqual([NEW.id, "KRCLOUD_CREDENTIAL_ID", "http://127.0.0.1:1/identity"]);
  });

  test("a credential from the environment itself gets no advice: no other one is known", () => {
    const fromEnv = resolveSettings({}, () => undefined, { KRCLOUD_CREDENTIAL_ID: NEW.id, KRCLOUD_CREDENTIAL_SECRET: NEW.secret });
    expect(rotationAdvice("read", fromEnv, undefined)).toBeUndefined();
  });
});
