/**
 * The scale benchmarks' language runtime share (bench/scale/report.ts) counts the program's process
 * and the language host that starts it: each process of a step is told apart by its command line.
 */
import { roleOf } from "../../bench/procs";

test("the program's process and its language host are told apart from the engine, the plugin and launchers", () => {
  const role = (...argv: string[]): string => roleOf(argv, false, "engine");
  // Python: the Go host, and the Python process running the executor script in the virtualenv.
  expect(role("/tools/bin/pulumi-language-python", "127.0.0.1:40000")).toBe("host");
  expect(role("/stack/venv/bin/python", "-u", "/tools/bin/pulumi-language-python-exec", "--monitor", "127.0.0.1:1")).toBe("program");
  // Node.js: the Go host, and Node running @pulumi/pulumi's run script.
  expect(role("/tools/bin/pulumi-language-nodejs", "127.0.0.1:40001")).toBe("host");
  expect(role("node", "/repo/node_modules/@pulumi/pulumi/cmd/run/index.js", "--project", "p")).toBe("program");
  // YAML: the host evaluates the program itself.
  expect(role("/tools/bin/pulumi-language-yaml", "127.0.0.1:40002")).toBe("program");
  expect(role("/tools/bin/pulumi-language-go", "127.0.0.1:40003")).toBe("host");
  expect(role("node", "/repo/dist/bin/pulumi-resource-krcloud.js", "127.0.0.1:40004")).toBe("provider");
  expect(role("/tools/bin/pulumi", "up")).toBe("engine");
  expect(role("/bin/sh", "-c", "exec something")).toBe("other");
});
