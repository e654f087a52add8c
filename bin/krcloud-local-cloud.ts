#!/usr/bin/env node
/**
 * Starts the local cloud: `krcloud-local-cloud --port 8790 [--host 127.0.0.1] [--separate-ports]
 * [--persist FILE] [--state-file FILE] [--trust-forwarded-for] [--cache-engine auto|redis|simulated] [--token-ttl 12h]`. On first start it issues a token
 * and an access key for a default project (kept across restarts with --persist), prints the
 * endpoints and credentials, and writes them as JSON to --state-file.
 */
import "../provider/core/node-version";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { parseArgs } from "node:util";
import { startLocalCloud } from "../local-cloud";
import { findRedisServer } from "../local-cloud/cache/redis/server";

const DEFAULT_PROJECT = "krcloudlocal0000000000000000000a";

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      host: { type: "string", default: "127.0.0.1" },
      port: { type: "string", default: "8790" },
      "separate-ports": { type: "boolean", default: false },
      persist: { type: "string" },
      "state-file": { type: "string" },
      "trust-forwarded-for": { type: "boolean", default: false },
      project: { type: "string", default: DEFAULT_PROJECT },
      "cache-engine": { type: "string", default: "auto" },
      "token-ttl": { type: "string", default: "12h" },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(
      "usage: krcloud-local-cloud [--port 8790] [--host 127.0.0.1] [--separate-ports] [--persist FILE] [--state-file FILE] [--trust-forwarded-for] [--project ID] [--cache-engine auto|redis|simulated] [--token-ttl 12h]\n" +
        "  --token-ttl: lifetime of the tokens the identity service issues: seconds, or a number with s, m or h (20s, 90m, 12h)\n",
    );
    return;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0-65535, got ${values.port}`);

  const cacheEngine = values["cache-engine"];
  if (cacheEngine !== "auto" && cacheEngine !== "redis" && cacheEngine !== "simulated")
    throw new Error(`--cache-engine must be auto, redis or simulated, got ${cacheEngine}`);

  const tokenTtlMs = parseDuration(values["token-ttl"]);
  if (tokenTtlMs === undefined)
    throw new Error(`--token-ttl must be a positive number of seconds, or a number with s, m or h (20s, 90m, 12h), got ${values["token-ttl"]}`);

  const servicePorts: Record<string, number> = {};
  if (values["separate-ports"] && port !== 0) servicePorts["object-storage"] = port + 1;

  const cloud = await startLocalCloud({
    host: values.host,
    port,
    separatePorts: values["separate-ports"],
    servicePorts,
    ...(values.persist ? { persistPath: values.persist } : {}),
    trustForwardedFor: values["trust-forwarded-for"],
    cacheEngine,
    tokenTtlMs,
  });

  // The default credentials are re-issued only when no credential exists for the default project
  // yet, so a persisted local cloud keeps handing out the same ones.
  const existing = cloud.control.existingCredentials(values.project);
  const token = existing.token ?? cloud.control.issueCredentials({ projectId: values.project, kind: "token" });
  const accessKey = existing.accessKey ?? cloud.control.issueCredentials({ projectId: values.project, kind: "access-key" });
  cloud.control.flush();

  const state = {
    url: cloud.url,
    // Which process serves it: scripts/local-cloud.sh stops it by this when its pid file is gone.
    pid: process.pid,
    controlUrl: cloud.controlUrl,
    consoleUrl: cloud.consoleUrl,
    endpoints: cloud.endpoints,
    projectId: values.project,
    token: token.kind === "token" ? token.token : undefined,
    credentialId: accessKey.kind === "access-key" ? accessKey.credentialId : undefined,
    credentialSecret: accessKey.kind === "access-key" ? accessKey.credentialSecret : undefined,
  };
  if (values["state-file"]) {
    mkdirSync(dirname(values["state-file"]), { recursive: true });
    // Written whole, then renamed: a reader (make demo, a test) never sees a half-written file.
    const partial = `${values["state-file"]}.${process.pid}.tmp`;
    writeFileSync(partial, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
    renameSync(partial, values["state-file"]);
  }
  const lines = [
    `krcloud local cloud listening on ${cloud.url}`,
    `  control API: ${cloud.controlUrl}`,
    `  console: ${cloud.consoleUrl} (open it in a browser)`,
    ...Object.entries(cloud.endpoints).map(([name, url]) => `  ${name}: ${url}`),
    `  project: ${state.projectId}`,
    `  identity service: ${cloud.endpoints.identity ?? ""} (tokens live ${values["token-ttl"]})`,
    `  cache nodes: ${cacheEngine === "simulated" || (cacheEngine === "auto" && !findRedisServer()) ? "simulated (no redis-server)" : `redis-server (${findRedisServer() ?? "not found: nodes will fail"})`}`,
    `  X-Auth-Token: ${state.token ?? ""}`,
    `  Credential-ID: ${state.credentialId ?? ""}`,
    `  Credential-Secret: ${state.credentialSecret ?? ""}`,
    ...(values["state-file"] ? [`  state written to ${values["state-file"]}`] : []),
    ...(values.persist ? [`  persisting to ${values.persist} (object bodies in ${cloud.dataDir})`] : []),
  ];
  process.stdout.write(`${lines.join("\n")}\n`);

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`received ${signal}, stopping\n`);
    cloud.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`error while stopping: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", () => stop("SIGINT"));
  process.on("SIGTERM", () => stop("SIGTERM"));
}

/** `20`, `20s`, `90m`, `12h` -> ms; undefined when it is none of those or not positive. */
function parseDuration(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)(s|m|h)?$/.exec(text.trim());
  if (!m) return undefined;
  const ms = Number(m[1]) * { s: 1_000, m: 60_000, h: 3_600_000 }[(m[2] ?? "s") as "s" | "m" | "h"];
  return ms > 0 ? ms : undefined;
}

main().catch((error: unknown) => {
  process.stderr.write(`krcloud-local-cloud: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
