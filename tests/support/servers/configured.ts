/**
 * For unit tests of check and diff: a configured provider (check fails a preview without an
 * endpoint or credentials). The endpoint is a loopback server that answers only the one read a
 * check may make (a cache parameter group's catalogue, with the local cloud's parameters) and
 * refuses everything else: no resource is ever created or changed.
 */
import { PARAMETERS } from "../../../local-cloud/cache/catalogue";
import { startScriptedServer, type ScriptedServer } from "./scripted";

const SETTINGS: Readonly<Record<string, string>> = {
  KRCLOUD_AUTH_TOKEN: "tok-unit",
  KRCLOUD_CREDENTIAL_ID: "id-unit",
  KRCLOUD_CREDENTIAL_SECRET: "secret-unit",
};

/** GET of a parameter group: the base group `id` with the local cloud's catalogue. */
function catalogue(server: ScriptedServer): void {
  server.route = (r) => {
    const m = /^\/cache\/v1\/parameter-groups\/([^/?]+)$/.exec(r.url);
    if (r.method !== "GET" || !m) return { status: 500, body: "not answered by the unit tests' loopback server" };
    const id = decodeURIComponent(m[1]!);
    const parameters = PARAMETERS.map((p) => ({ ...p, parameterValue: p.defaultParameterValue }));
    return { status: 200, headers: { "Content-Type": "application/json" }, body: JSON.stringify({ id, name: id, isDefault: true, parameters }) };
  };
}

/** Sets the settings for the test file (beforeAll) and restores the environment after it (afterAll). */
export function configuredProvider(): void {
  const saved: Record<string, string | undefined> = {};
  let server: ScriptedServer | undefined;
  beforeAll(async () => {
    server = await startScriptedServer();
    catalogue(server);
    for (const [k, v] of Object.entries({ ...SETTINGS, KRCLOUD_LOCAL_CLOUD_URL: server.origin })) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
  });
  afterAll(async () => {
    for (const k of [...Object.keys(SETTINGS), "KRCLOUD_LOCAL_CLOUD_URL"]) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
    await server?.close();
  });
}
