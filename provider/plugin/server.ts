/**
 * The native provider plugin `pulumi-resource-krcloud`: a gRPC ResourceProvider server on the
 * protocol stubs shipped with @pulumi/pulumi, serving the same built providers the dynamic stub
 * reaches (`runtime.provider(token)`) and the lookups of `LOOKUPS`. See docs/architecture.md
 * ("The native provider plugin") for why this is a server of our own and not the SDK's.
 *
 * What it adds over the dynamic path: the engine's resource name and random seed for auto-naming,
 * a detailed diff, the operation timeouts (`customTimeouts`, a refresh's read included), reads from
 * the id alone (import), List (`pulumi do … list`), a refresh asked for after a partial failure,
 * invoke, the schema, explicit provider configuration, secrets kept secret end to end, and the
 * components (Construct, construct.ts) for YAML, Python and Go programs.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as anyproto from "google-protobuf/google/protobuf/any_pb";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as enginerpc from "@pulumi/pulumi/proto/engine_grpc_pb";
import * as engineproto from "@pulumi/pulumi/proto/engine_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as statusproto from "@pulumi/pulumi/proto/status_pb";
import { authenticated, redactError, redactText, secretValues, systemClock, type ServiceName } from "../../client/core";
import { configFailures, currentSettings, providerIdentity, setProviderIdentity, setStackConfig } from "../core/config";
import { UNKNOWN } from "../core/unknown";
import { LOGICAL_NAME_KEY, PARTIAL_KEY, PROVIDER_KEY, listPage, type AnyDefinition, type Context, type Listed, type OperationOptions } from "../core/resource";
import { toPlain } from "../core/sanitize";
import { keepWriteOnly } from "../core/provider";
import { secretInputKeys, secretOutputsFor } from "../core/secrets";
import { parseArgs, runLookup } from "../core/lookup";
import { findComponent, findLookup } from "../registry";
import { construct } from "./construct";
import { definition, provider } from "../runtime";
import { isInlineAsset, nameOfUrn, revealProps, typeOfUrn, wrapSecrets, type Props } from "./properties";

/** The package root (holding package.json and schema.json), from dist/provider/plugin or provider/plugin. */
export function packageRoot(start = __dirname): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const pkg = path.join(dir, "package.json");
    if (fs.existsSync(pkg) && JSON.parse(fs.readFileSync(pkg, "utf8")).name === "pulumi-krcloud") return dir;
    if (path.dirname(dir) === dir) throw new Error(`no pulumi-krcloud package.json above ${start}`);
  }
}

export function packageVersion(): string {
  return JSON.parse(fs.readFileSync(path.join(packageRoot(), "package.json"), "utf8")).version;
}

type Unary<Req, Res> = (call: grpc.ServerUnaryCall<Req, Res>, callback: grpc.sendUnaryData<Res>) => void;

function unimplemented(method: string): Unary<unknown, unknown> {
  return (_call, callback) => callback({ code: grpc.status.UNIMPLEMENTED, details: `${method} is not implemented by the krcloud provider` }, null);
}

/** Runs `fn` and answers with its result, or with its error (secrets removed from the message). */
function handle<Req, Res>(fn: (req: Req) => Promise<Res>): Unary<Req, Res> {
  return (call, callback) => {
    fn(call.request).then(
      (res) => callback(null, res),
      (e: unknown) => callback(grpcError(e), null),
    );
  };
}

type Revealed = ReturnType<typeof revealProps>;

/**
 * `handle` for create and update: the definition, the revealed inputs (`inputsOf` the request) and
 * a new `Response` reach `fn`, and a partial failure's properties (grpcError) get the same secrets
 * a success's do. A preview sends nothing: the inputs stand for the outputs (since Handshake the
 * engine asks for previews of updates too).
 */
function handleChange<
  Req extends { getUrn(): string; getType?(): string; getPreview(): boolean },
  Res extends { setProperties(value?: structproto.Struct): unknown },
>(
  inputsOf: (req: Req) => structproto.Struct | undefined,
  Response: new () => Res,
  fn: (req: Req, def: AnyDefinition, inputs: Revealed, res: Res) => Promise<Res>,
): Unary<Req, Res> {
  return (call, callback) => {
    const inputs = revealProps(fromStruct(inputsOf(call.request)));
    let def: AnyDefinition | undefined;
    const run = async () => {
      def = definition(tokenOf(call.request));
      const res = new Response();
      if (call.request.getPreview()) {
        res.setProperties(inputsOf(call.request));
        return res;
      }
      return fn(call.request, def, inputs, res);
    };
    run().then(
      (res) => callback(null, res),
      (e: unknown) => callback(grpcError(e, inputs.secrets, def, inputs.props), null),
    );
  };
}

function toStruct(props: Props): structproto.Struct {
  return structproto.Struct.fromJavaScript(toPlain(props) as Record<string, structproto.JavaScriptValue>);
}

function fromStruct(s: structproto.Struct | undefined): Props {
  return s?.toJavaScript() ?? {};
}

/** The token of the resource a request is about: the request's type, else its URN's. */
/**
 * With KRCLOUD_HANDLER_TIMES naming a file, each check, diff and update appends a JSON line there
 * (handler, type, milliseconds from the decoded request to the answer handed to gRPC, the process's
 * CPU milliseconds in that time, pid): the provider's own time, for bench/folder.ts. The engine's
 * time around it (the binary encoding of the request and of the answer, the checkpoint) is not in
 * it. CPU time says what the handler costs on a machine other work also loads (it counts the
 * whole process, which serves one resource at a time in that benchmark).
 */
function timed<Req extends { getUrn(): string; getType?(): string }, Res>(handler: string, u: Unary<Req, Res>): Unary<Req, Res> {
  const file = process.env.KRCLOUD_HANDLER_TIMES;
  if (!file) return u;
  return (call, callback) => {
    const start = performance.now();
    const cpu = process.cpuUsage();
    u(call, (err, res) => {
      const ms = Math.round((performance.now() - start) * 10) / 10;
      const used = process.cpuUsage(cpu);
      const cpuMs = Math.round((used.user + used.system) / 100) / 10;
      fs.appendFileSync(file, `${JSON.stringify({ handler, type: tokenOf(call.request), ms, cpuMs, pid: process.pid })}\n`);
      callback(err, res);
    });
  };
}

function tokenOf(req: { getUrn(): string; getType?(): string }): string {
  return req.getType?.() || typeOfUrn(req.getUrn());
}

/**
 * Outputs to return as secrets: the definition's always-secret ones, every input that arrived
 * secret, and what reveals an input that is secret or inline asset text (secrets.ts; the dynamic
 * classes apply the same rule to what they can see).
 */
export function secretKeys(def: AnyDefinition, secretInputs: Iterable<string>, inputs: Props = {}): Set<string> {
  const given = new Set(secretInputs);
  const keys = new Set<string>(secretOutputsFor(def, (k) => given.has(k) || isInlineAsset(inputs[k])));
  for (const k of given) keys.add(k);
  return keys;
}

/** Strips what only the dynamic path uses (`__provider` in state written by the dynamic classes). */
function withoutDynamicKeys(props: Props): Props {
  const { [PROVIDER_KEY]: _p, [LOGICAL_NAME_KEY]: _n, ...rest } = props;
  return rest;
}

/**
 * A gRPC error the engine understands. A create or update that failed after the cloud accepted it
 * carries `id` and `properties` (see PartialFailure): it becomes ErrorResourceInitFailed, so the
 * engine keeps the resource in state.
 */
function grpcError(e: unknown, secrets: Iterable<string> = [], def?: AnyDefinition, inputs: Props = {}): grpc.StatusObject {
  const err = redactError(e, secretValues(currentSettings())) as Error & { id?: string; properties?: Props; reasons?: string[] };
  const message = err?.message ?? String(err);
  const metadata = new grpc.Metadata();
  if (err?.id) {
    const detail = new provproto.ErrorResourceInitFailed();
    detail.setId(err.id);
    const props = withoutDynamicKeys(err.properties ?? {});
    detail.setProperties(toStruct(def ? wrapSecrets(props, secretKeys(def, secrets, inputs)) : props));
    detail.setReasonsList(err.reasons ?? [message]);
    // The cloud may have gone on after the failure (a held create that settles later): the engine
    // reads it again before the next update, so that update starts from what the cloud holds.
    detail.setRefreshBeforeUpdate(true);
    const any = new anyproto.Any();
    any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    const status = new statusproto.Status();
    status.setCode(grpc.status.UNKNOWN);
    status.setMessage(message);
    status.addDetails(any);
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  }
  return { code: grpc.status.UNKNOWN, details: message, metadata };
}

const DIFF_KIND = provproto.PropertyDiff.Kind;

/** The engine's check failures, one per property. */
function checkFailures(failures: readonly { property: string; reason: string }[]): provproto.CheckFailure[] {
  return failures.map((f) => {
    const failure = new provproto.CheckFailure();
    failure.setProperty(f.property);
    failure.setReason(f.reason);
    return failure;
  });
}

/**
 * A diff of `diffs` (input properties; `replaces` among them replace the resource), with the
 * detailed diff the engine shows: each property added (no old value), deleted (no new one) or
 * updated, and whether it replaces.
 */
function diffResponse(
  changes: boolean,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  diffs: string[],
  replaces: readonly string[],
): provproto.DiffResponse {
  const res = new provproto.DiffResponse();
  res.setChanges(changes ? provproto.DiffResponse.DiffChanges.DIFF_SOME : provproto.DiffResponse.DiffChanges.DIFF_NONE);
  res.setReplacesList([...replaces]);
  res.setDiffsList(diffs);
  const replacing = new Set(replaces);
  const detailed = res.getDetaileddiffMap();
  for (const key of diffs) {
    const pd = new provproto.PropertyDiff();
    const replace = replacing.has(key);
    if (olds[key] === undefined) pd.setKind(replace ? DIFF_KIND.ADD_REPLACE : DIFF_KIND.ADD);
    else if (news[key] === undefined) pd.setKind(replace ? DIFF_KIND.DELETE_REPLACE : DIFF_KIND.DELETE);
    else pd.setKind(replace ? DIFF_KIND.UPDATE_REPLACE : DIFF_KIND.UPDATE);
    pd.setInputdiff(true);
    detailed.set(key, pd);
  }
  res.setHasdetaileddiff(true);
  return res;
}

export class KrcloudProviderService {
  /** The engine's address (argv, then Attach): progress lines go to its log. */
  engineAddress: string | undefined;
  private engine: { address: string; client: enginerpc.EngineClient } | undefined;

  constructor(engineAddress?: string) {
    this.engineAddress = engineAddress;
  }

  /** The per-call options of an operation: its timeout (`customTimeouts`) and where its progress lines go. */
  private options(req: { getUrn(): string; getTimeout(): number }): OperationOptions {
    const urn = req.getUrn();
    return { timeoutSeconds: req.getTimeout(), progress: (m) => this.log(urn, m), warn: (m) => this.log(urn, m, "warning") };
  }

  /**
   * A progress line on the resource's row of the `pulumi up` display: an ephemeral info message
   * through the engine's Log (a plugin's own stdout reaches the display only as an unattributed
   * line); a check's notice stays (not ephemeral), listed with the resource's diagnostics. Without
   * an engine (a test driving the server), stdout. Best effort: a line the engine cannot take is
   * dropped, never an error of the operation.
   */
  private log(urn: string, message: string, severity: "info" | "warning" = "info", ephemeral = severity === "info"): void {
    const address = this.engineAddress;
    if (!address) {
      (severity === "warning" ? process.stderr : process.stdout).write(`${severity === "warning" ? "warning: " : ""}${message}\n`);
      return;
    }
    if (this.engine?.address !== address) {
      this.engine?.client.close();
      this.engine = { address, client: new enginerpc.EngineClient(address, grpc.credentials.createInsecure()) };
    }
    const req = new engineproto.LogRequest();
    req.setSeverity(severity === "warning" ? engineproto.LogSeverity.WARNING : engineproto.LogSeverity.INFO);
    req.setMessage(redactText(message, secretValues(currentSettings())));
    req.setUrn(urn);
    // Progress lines pass; a warning or a notice stays in the diagnostics.
    req.setEphemeral(ephemeral);
    this.engine.client.log(req, () => undefined);
  }

  getPluginInfo = handle(async (_req: emptyproto.Empty) => {
    const info = new plugproto.PluginInfo();
    info.setVersion(packageVersion());
    return info;
  });

  getSchema = handle(async (req: provproto.GetSchemaRequest) => {
    if (req.getVersion() !== 0) throw new Error(`unsupported schema version ${req.getVersion()}`);
    const res = new provproto.GetSchemaResponse();
    res.setSchema(fs.readFileSync(path.join(packageRoot(), "schema.json"), "utf8"));
    return res;
  });

  /**
   * Provider configuration: the default provider gets the stack's `krcloud:*` config, an explicit
   * provider resource its inputs. Secrets arrive decrypted and stay in this process's memory.
   */
  configure = handle(async (req: provproto.ConfigureRequest) => {
    const args = revealProps(fromStruct(req.getArgs())).props;
    // Engines that send no args send `variables`: `krcloud:config:<key>` -> value.
    for (const [k, v] of req.getVariablesMap().entries()) {
      const key = k.replace(/^krcloud:(config:)?/, "");
      if (args[key] === undefined) args[key] = v;
    }
    setStackConfig({
      get(key: string) {
        const v = args[key.replace(/^krcloud:/, "")];
        if (v === undefined || v === null) return undefined;
        return typeof v === "string" ? v : JSON.stringify(v);
      },
    });
    // The provider resource's own id: the stack's identity for create keys and ownership markers.
    setProviderIdentity(req.hasId() ? req.getId() || undefined : undefined);
    const res = new provproto.ConfigureResponse();
    res.setAcceptsecrets(true);
    res.setSupportspreview(false);
    res.setAcceptresources(false);
    res.setAcceptoutputs(false);
    return res;
  });

  /**
   * The provider's configuration checked without a request: each key a krcloud setting, URLs that
   * keep credentials off the network in clear text, both halves of an access key. The inputs go
   * back as they came (secrets still wrapped).
   */
  checkConfig = handle(async (req: provproto.CheckRequest) => {
    const news = revealProps(fromStruct(req.getNews())).props;
    const res = new provproto.CheckResponse();
    res.setInputs(req.getNews() ?? new structproto.Struct());
    res.setFailuresList(checkFailures(configFailures(news, UNKNOWN).map((f) => ({ property: f.key, reason: f.reason }))));
    return res;
  });

  /**
   * Any change of the configuration is an update of the provider alone, never a replacement: a
   * resource is neither updated nor replaced for it (replacing would also break moving a stack from
   * the dynamic classes to the plugin, docs/architecture.md). It must be a change, not "no diff",
   * for credentials too: the engine configures the provider with the new configuration only for a
   * change, and otherwise keeps the instance it configured from the state, whose rotated key the
   * identity service refuses (issue 38 item 4: `up` and `refresh --run-program` kept the old key).
   */
  diffConfig = handle(async (req: provproto.DiffRequest) => {
    const olds = revealProps(fromStruct(req.getOldInputs() ?? req.getOlds())).props;
    const news = revealProps(fromStruct(req.getNews())).props;
    const changed = [...new Set([...Object.keys(olds), ...Object.keys(news)])]
      .filter((k) => k !== "version" && JSON.stringify(olds[k]) !== JSON.stringify(news[k]))
      .sort();
    return diffResponse(changed.length > 0, olds, news, changed, []);
  });

  check = timed(
    "check",
    handle(async (req: provproto.CheckRequest) => {
      const token = tokenOf(req);
      const olds = revealProps(fromStruct(req.getOlds()));
      const news = revealProps(fromStruct(req.getNews()));
      const name = req.getName() || nameOfUrn(req.getUrn());
      const urn = req.getUrn();
      const result = await provider(token).check(
        olds.props,
        { ...news.props, [LOGICAL_NAME_KEY]: name },
        { urn, stack: providerIdentity(), notice: (m) => this.log(urn, m, "info", false), warn: (m) => this.log(urn, m, "warning") },
      );
      const res = new provproto.CheckResponse();
      // The engine stores the checked inputs in the state: a secret input is a secret there even when
      // the program passed it plain (a YAML program's password).
      const secrets = new Set([...news.secrets, ...secretInputKeys(definition(token))]);
      res.setInputs(toStruct(wrapSecrets(withoutDynamicKeys(result.inputs ?? {}), secrets)));
      res.setFailuresList(checkFailures(result.failures ?? []));
      return res;
    }),
  );

  /** Compares the recorded outputs with the new inputs, as the dynamic path does, and says per property what changes. */
  diff = timed(
    "diff",
    handle(async (req: provproto.DiffRequest) => {
      const token = tokenOf(req);
      const olds = revealProps(fromStruct(req.getOlds())).props;
      const news = revealProps(fromStruct(req.getNews())).props;
      const oldInputs = req.getOldInputs() ? withoutDynamicKeys(revealProps(fromStruct(req.getOldInputs())).props) : undefined;
      const d = await provider(token).diff(req.getId(), withoutDynamicKeys(olds), news, oldInputs);
      const res = diffResponse(d.changes === true, olds, news, d.diffs, d.replaces ?? []);
      res.setDeletebeforereplace(d.deleteBeforeReplace === true);
      // The detailed diff names the properties that replace; why, and what the replacement loses, the
      // protocol has no field for: a warning on the resource's row.
      for (const w of d.warnings ?? []) this.log(req.getUrn(), w, "warning");
      for (const n of d.notes ?? []) this.log(req.getUrn(), n, "info", false);
      return res;
    }),
  );

  create = handleChange(
    (req: provproto.CreateRequest) => req.getProperties(),
    provproto.CreateResponse,
    async (req, def, inputs, res) => {
      const { id, outs } = await provider(def.token).create(withoutDynamicKeys(inputs.props), this.options(req));
      res.setId(id);
      res.setProperties(toStruct(wrapSecrets(outs as Props, secretKeys(def, inputs.secrets, inputs.props))));
      return res;
    },
  );

  /**
   * Refresh (state given), `pulumi import` and the `import` option (id only: the definitions' read
   * gets `olds` = {}). Returns inputs, so the next up of a program declaring the same values shows
   * no diff. An empty id says the resource is gone.
   */
  read = handle(async (req: provproto.ReadRequest) => {
    const token = tokenOf(req);
    const def = definition(token);
    const state = revealProps(fromStruct(req.getProperties()));
    const oldInputs = revealProps(fromStruct(req.getInputs()));
    const r = await provider(token).read(req.getId(), withoutDynamicKeys(state.props), this.options(req));
    const res = new provproto.ReadResponse();
    if (!r.id) return res;
    const secrets = secretKeys(def, [...state.secrets, ...oldInputs.secrets], oldInputs.props);
    res.setId(r.id);
    res.setProperties(toStruct(wrapSecrets((r.props ?? {}) as Props, secrets)));
    res.setInputs(toStruct(wrapSecrets(keepWriteOnly(def, (r.inputs ?? {}) as Props, withoutDynamicKeys(oldInputs.props)), secrets)));
    // Still marked incomplete (a refresh keeps the mark until an update finishes it): read again before that update.
    res.setRefreshBeforeUpdate((r.props as Props | undefined)?.[PARTIAL_KEY] !== undefined);
    return res;
  });

  update = timed(
    "update",
    handleChange(
      (req: provproto.UpdateRequest) => req.getNews(),
      provproto.UpdateResponse,
      async (req, def, news, res) => {
        const olds = revealProps(fromStruct(req.getOlds())).props;
        const r = await provider(def.token).update(req.getId(), withoutDynamicKeys(olds), withoutDynamicKeys(news.props), this.options(req));
        res.setProperties(toStruct(wrapSecrets((r.outs ?? {}) as Props, secretKeys(def, news.secrets, news.props))));
        return res;
      },
    ),
  );

  delete = handle(async (req: provproto.DeleteRequest) => {
    const token = tokenOf(req);
    const props = revealProps(fromStruct(req.getProperties())).props;
    await provider(token).delete(req.getId(), withoutDynamicKeys(props), this.options(req));
    return new emptyproto.Empty();
  });

  /** Lookups (`fn::invoke`, SDK functions), with this provider's settings. */
  invoke = handle(async (req: provproto.InvokeRequest) => {
    const lookup = findLookup(req.getTok());
    if (!lookup) throw new Error(`unknown krcloud function ${req.getTok()}`);
    const args = revealProps(fromStruct(req.getArgs()));
    // A function that changes something does nothing in a preview (lookup.ts `mutates`).
    const result = toPlain((await runLookup(lookup, parseArgs(lookup, args.props), currentSettings(), req.getPreview())) ?? {}) as Props;
    // A secret argument may show in any part of the result.
    const secrets = args.secrets.size > 0 ? Object.keys(result) : (lookup.secretResults ?? []);
    const res = new provproto.InvokeResponse();
    res.setReturn(toStruct(wrapSecrets(result, secrets)));
    return res;
  });

  cancel = handle(async (_req: emptyproto.Empty) => new emptyproto.Empty());

  attach = handle(async (req: plugproto.PluginAttach) => {
    this.engineAddress = req.getAddress();
    return new emptyproto.Empty();
  });

  /**
   * The capabilities, declared before Configure: secrets kept secret both ways, previews of creates
   * and updates (the engine then asks for them: both answer without a call), no resource references
   * or outputs in inputs (the engine resolves them first), no autonaming configuration (names come
   * from the definitions' rules), no byte strings. The engine's address arrives here too.
   */
  handshake = handle(async (req: provproto.ProviderHandshakeRequest) => {
    if (req.getEngineAddress()) this.engineAddress = req.getEngineAddress();
    const res = new provproto.ProviderHandshakeResponse();
    res.setAcceptSecrets(true);
    res.setAcceptResources(false);
    res.setAcceptOutputs(false);
    res.setSupportsAutonamingConfiguration(false);
    res.setAcceptsByteString(false);
    return res;
  });
  parameterize = unimplemented("Parameterize");
  /** A component (`isComponent` in the schema) for a YAML, Python or Go program: construct.ts. */
  construct = handle(async (req: provproto.ConstructRequest) => {
    const component = findComponent(req.getType());
    if (!component) throw new Error(`unknown krcloud component ${req.getType()}`);
    return construct(req, this.engineAddress, component, packageVersion());
  });
  call = unimplemented("Call");
  getMapping = unimplemented("GetMapping");
  getMappings = unimplemented("GetMappings");
  /**
   * `pulumi do <token> list`: the type's `list` (its definition's, the one krcloud-drift --unmanaged
   * uses), one page per call, each item streamed, then the continuation when there is more. The
   * query holds the type's listInputs; one still unknown answers Computed.
   */
  list = (call: grpc.ServerWritableStream<provproto.ListRequest, provproto.ListResponse>): void => {
    const req = call.request;
    const run = async () => {
      const def = definition(req.getToken());
      const query = fromStruct(req.getQuery());
      if (Object.values(query).some((v) => v === UNKNOWN)) {
        const res = new provproto.ListResponse();
        res.setComputed(new provproto.ListResponse.Computed());
        call.write(res);
        return;
      }
      const filters: Record<string, string> = {};
      for (const [k, v] of Object.entries(query)) {
        if (v === null || v === undefined) continue;
        if (typeof v !== "string") throw new Error(`listing ${def.token}: ${k} must be a string`);
        filters[k] = v;
      }
      const service = def.token.split(":")[1] as ServiceName;
      const ctx: Context = { settings: await authenticated(currentSettings(), { service }), progress: () => undefined, clock: systemClock };
      const limit = req.getLimit() > 0 ? req.getLimit() : undefined;
      const pageSize = req.getPageSize() > 0 ? req.getPageSize() : undefined;
      const sizes = [pageSize, limit].filter((n): n is number => n !== undefined);
      const page = await listPage(def, ctx, {
        query: filters,
        pageSize: sizes.length > 0 ? Math.min(...sizes) : undefined,
        continuation: req.getContinuationToken() || undefined,
      });
      const items: Listed[] = limit !== undefined ? page.items.slice(0, limit) : page.items;
      for (const item of items) {
        const result = new provproto.ListResponse.Result();
        result.setId(item.id);
        result.setName(item.name);
        const res = new provproto.ListResponse();
        res.setResult(result);
        call.write(res);
      }
      // A page cut at the limit ends the listing: the engine asks for no more past it.
      if (page.continuation !== undefined && items.length === page.items.length) {
        const cont = new provproto.ListResponse.Continuation();
        cont.setContinuationToken(page.continuation);
        const res = new provproto.ListResponse();
        res.setContinuation(cont);
        call.write(res);
      }
    };
    run().then(
      () => call.end(),
      (e: unknown) => call.emit("error", grpcError(e)),
    );
  };
}

/** The server on a free loopback port. */
export async function listen(engineAddress?: string): Promise<{ server: grpc.Server; port: number }> {
  const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
  server.addService(provrpc.ResourceProviderService, new KrcloudProviderService(engineAddress) as unknown as grpc.UntypedServiceImplementation);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  return { server, port };
}

/** The plugin's main: listens and prints the port, as the engine expects (argv: engine address, then flags). */
export async function serve(args: readonly string[]): Promise<grpc.Server> {
  const { server, port } = await listen(args.find((a) => !a.startsWith("-")));
  process.stdout.write(`${port}\n`);
  return server;
}
