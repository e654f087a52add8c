/**
 * Warnings of the dynamic classes' provider, shown by `pulumi preview` and `up`. The dynamic
 * provider host (@pulumi/pulumi's cmd/dynamic-provider) is started with the engine's address as its
 * first argument; a message sent to the engine's Log with severity WARNING is displayed as
 * `warning: ...` and counted in the summary ("1 warning"), whereas a line on the host's stdout or
 * stderr shows only as an unmarked message (measured with pulumi v3.259; see
 * tests/engine/preview-reasons.test.ts). The host's diff gets no URN, so the warning sits under the
 * stack's diagnostics and names the resource itself. Outside the host (tests), stderr.
 */
import { createRequire } from "node:module";
import { redactText, secretValues } from "../../client/core";
import { currentSettings } from "./config";

type EngineClient = { log(req: unknown, cb: (err: unknown) => void): void; close(): void };
let engine: { address: string; client: EngineClient } | undefined;

/** The engine's address when this process is the dynamic provider host, else undefined. */
export function dynamicHostEngine(argv: readonly string[] = process.argv): string | undefined {
  const [, script = "", address = ""] = argv;
  return /dynamic-provider(\/index(\.js)?)?$/.test(script) && /^[^\s/]+:\d+$/.test(address) ? address : undefined;
}

/** Sends each message as a warning; best effort: a warning the engine cannot take goes to stderr, never fails the caller. */
export async function warn(messages: readonly string[]): Promise<void> {
  const clean = messages.map((m) => redactText(m, secretValues(currentSettings())));
  const address = dynamicHostEngine();
  if (address === undefined) {
    for (const m of clean) process.stderr.write(`warning: ${m}\n`);
    return;
  }
  // Loaded only when there is something to say: gRPC and the protocol stubs cost a plan that has none.
  // gRPC as @pulumi/pulumi resolves it: the stubs' client needs credentials of the same copy.
  const grpc = createRequire(require.resolve("@pulumi/pulumi"))("@grpc/grpc-js") as typeof import("@grpc/grpc-js");
  const enginerpc = await import("@pulumi/pulumi/proto/engine_grpc_pb");
  const engineproto = await import("@pulumi/pulumi/proto/engine_pb");
  if (engine?.address !== address) {
    engine?.client.close();
    engine = { address, client: new enginerpc.EngineClient(address, grpc.credentials.createInsecure()) as unknown as EngineClient };
  }
  const client = engine.client;
  for (const m of clean) {
    const req = new engineproto.LogRequest();
    req.setSeverity(engineproto.LogSeverity.WARNING);
    req.setMessage(m);
    await new Promise<void>((resolve) =>
      client.log(req, (err) => {
        if (err) process.stderr.write(`warning: ${m}\n`);
        resolve();
      }),
    );
  }
}
