/**
 * examples/go-static-site, a Go program on the generated Go SDK (`make sdks`, sdk/go, required
 * through a `replace`), run by the real CLI with pulumi-language-go (`make pulumi-languages`, which
 * builds the program with the go on PATH) and the native plugin: the steps of
 * tests/support/language-steps.ts (up, preview --expect-no-changes, drift and refresh, import, destroy).
 */
import * as path from "node:path";
import { buildGoProgram, ENGINE_TEST_TIMEOUT_MS, pulumiLanguagesBinDir, wireGoProgram } from "../harness/engine";
import { staticSiteSteps } from "../support/language-steps";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

staticSiteSteps({
  example: "go-static-site",
  runtime: "go",
  stack: "go",
  hostMissing: () => (pulumiLanguagesBinDir() ? undefined : "pulumi-language-go is missing: run `make pulumi-languages`"),
  greeting: "<h1>Hello from Go and krcloud</h1>",
  sdks: { wheel: false },
  wire: async (workDir, sdkDir) => {
    // As the example's README says: go.mod's `replace` names the generated SDK's directory.
    await wireGoProgram(workDir, path.join(sdkDir, "go"));
    // The host builds the program before every command. Built once here first, so that a cold Go
    // cache (the Pulumi Go SDK compiled from scratch: about 6 minutes on a loaded 2-core machine, 15
    // seconds warm) falls in this hook's time and not in up's.
    await buildGoProgram(workDir);
  },
  setupTimeoutMs: 900_000,
});
