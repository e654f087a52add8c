/**
 * For unit tests of check and diff: a configured provider (check fails a preview without an
 * endpoint or credentials), pointing at a loopback port where nothing listens; no request is sent.
 */
const SETTINGS: Readonly<Record<string, string>> = {
  KRCLOUD_LOCAL_CLOUD_URL: "http://127.0.0.1:9",
  KRCLOUD_AUTH_TOKEN: "tok-unit",
  KRCLOUD_CREDENTIAL_ID: "id-unit",
  KRCLOUD_CREDENTIAL_SECRET: "secret-unit",
};

/** Sets the settings for the test file (beforeAll) and restores the environment after it (afterAll). */
export function configuredProvider(): void {
  const saved: Record<string, string | undefined> = {};
  beforeAll(() => {
    for (const [k, v] of Object.entries(SETTINGS)) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
  });
  afterAll(() => {
    for (const k of Object.keys(SETTINGS)) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  });
}
