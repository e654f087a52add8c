/**
 * examples/python-static-site, a Python program on the pulumi_krcloud wheel (`make sdks`), run by the
 * real CLI with pulumi-language-python (`make pulumi-languages`), `pulumi` 3.259.0 from PyPI in a
 * virtualenv, and the native plugin: the steps of tests/support/language-steps.ts (up, preview
 * --expect-no-changes, drift and refresh, import, destroy).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { ENGINE_TEST_TIMEOUT_MS, pulumiLanguagesBinDir, sharedVirtualenv } from "../harness/engine";
import { staticSiteSteps } from "../support/language-steps";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

staticSiteSteps({
  example: "python-static-site",
  runtime: "python",
  stack: "python",
  hostMissing: () => (pulumiLanguagesBinDir() ? undefined : "pulumi-language-python is missing: run `make pulumi-languages`"),
  greeting: "<h1>Hello from Python and krcloud</h1>",
  sdks: "shared",
  // As the example's README says: the virtualenv Pulumi.yaml names (venv), holding requirements.txt
  // and the wheel; made once per wheel and requirements and shared (sharedVirtualenv), linked here.
  wire: async (workDir) =>
    fs.symlinkSync(await sharedVirtualenv(fs.readFileSync(path.join(workDir, "requirements.txt"), "utf8")), path.join(workDir, "venv"), "dir"),
  setupTimeoutMs: 600_000,
});
