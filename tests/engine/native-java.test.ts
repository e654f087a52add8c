/**
 * examples/java-static-site, a Java program on the Java SDK generated from schema.json (`make sdks`:
 * pulumi-java-gen v1.17.0, built with Maven and installed into the local Maven repository as
 * com.pulumi:krcloud), run by the real CLI with pulumi-language-java v1.17.0 (`make
 * pulumi-languages`, which runs `mvn compile exec:java` in the program's directory) and the native
 * plugin: the steps of tests/support/language-steps.ts (up, preview --expect-no-changes, drift and refresh,
 * import, destroy).
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { compileJavaProgram, ENGINE_TEST_TIMEOUT_MS, PACKAGE_VERSION, pulumiJavaBinDir } from "../harness/engine";
import { staticSiteSteps } from "../support/language-steps";

jest.setTimeout(ENGINE_TEST_TIMEOUT_MS);

staticSiteSteps({
  example: "java-static-site",
  runtime: "java",
  stack: "java",
  hostMissing: () => {
    if (!pulumiJavaBinDir()) return "pulumi-language-java is missing: run `make pulumi-java`";
    // The host runs programs with Maven: without it every command fails with a less telling message.
    if (spawnSync("mvn", ["--version"], { stdio: "ignore" }).status !== 0) return "mvn is not on PATH: the Java host runs programs with Maven (and a JDK)";
    return undefined;
  },
  greeting: "<h1>Hello from Java and krcloud</h1>",
  sdks: { wheel: false, java: true },
  wire: async (workDir) => {
    // As the example's README says: pom.xml names the SDK `make sdks` installed, at the package's version.
    const pom = fs.readFileSync(path.join(workDir, "pom.xml"), "utf8");
    if (!pom.includes(`<artifactId>krcloud</artifactId>\n            <version>${PACKAGE_VERSION}</version>`)) {
      throw new Error(`examples/java-static-site/pom.xml does not depend on com.pulumi:krcloud:${PACKAGE_VERSION}, the version make sdks installs`);
    }
    // The host runs `mvn compile exec:java` before every command. Compiled once here first, so
    // that resolving the dependencies and Maven's plugins (a cold local repository) falls in this
    // hook's time and not in up's.
    await compileJavaProgram(workDir);
  },
  setupTimeoutMs: 900_000,
});
