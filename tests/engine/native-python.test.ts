/**
 * examples/python-static-site, a Python program on the pulumi_krcloud wheel (`make sdks`), run by the
 * real CLI with pulumi-language-python (`make pulumi-languages`), `pulumi` 3.259.0 from PyPI in a
 * virtualenv, and the native plugin: the steps of tests/support/language-steps.ts (up, preview
 * --expect-no-changes, drift and refresh, import, destroy).
 */
import * as path from "node:path";
import { ENGINE_TEST_TIMEOUT_MS, makeVirtualenv, pulumiLanguagesBinDir, pythonWheel } from "../harness/engine";
import { staticSiteSteps } from "../support/language-steps";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

staticSiteSteps({
  example: "python-static-site",
  runtime: "python",
  stack: "python",
  hostMissing: () => (pulumiLanguagesBinDir() ? undefined : "pulumi-language-python is missing: run `make pulumi-languages`"),
  greeting: "<h1>Hello from Python and krcloud</h1>",
  sdks: { wheel: true },
  // As the example's README says: a virtualenv named in Pulumi.yaml, requirements.txt and the wheel.
  wire: (workDir, sdkDir) => makeVirtualenv(path.join(workDir, "venv"), path.join(workDir, "requirements.txt"), pythonWheel(sdkDir)),
  setupTimeoutMs: 600_000,
});
