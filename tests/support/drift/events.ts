/**
 * Engine events shaped as `pulumi preview --refresh` sends them (checked against recorded runs of
 * the CLI): a refresh event per resource with its inputs before and after the read, then one step
 * per resource with the refreshed inputs (old) and the program's (new). Secrets are envelopes whose
 * ciphertext the event stream shows as "[secret]".
 */
import type { EngineEvent, OpType, StepEventMetadata, StepEventStateMetadata } from "@pulumi/pulumi/automation";

export const DYNAMIC = (token: string): string => {
  const [pkg, mod, type] = token.split(":");
  return `pulumi-nodejs:dynamic/${pkg}/${mod}:${type}`;
};

export const urnOf = (name: string, type: string, stack = "dev", project = "proj") => `urn:pulumi:${stack}::${project}::${type}::${name}`;

/** A secret as the event stream shows it. */
export const SECRET_ENVELOPE = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", ciphertext: "[secret]" };

function state(urn: string, type: string, inputs: Record<string, unknown> | undefined, outputs?: Record<string, unknown>): StepEventStateMetadata | undefined {
  if (inputs === undefined) return undefined;
  return { type, urn, id: urn.split("::").pop()!, parent: "", inputs, outputs: outputs ?? inputs, provider: "prov" };
}

let seq = 0;
const event = (body: Partial<EngineEvent>): EngineEvent => ({ sequence: seq++, timestamp: 0, ...body });

export interface ResourceEvents {
  name: string;
  type: string;
  /** Inputs recorded by the last up (before refresh). */
  before: Record<string, unknown>;
  /** Inputs as refresh read them; undefined: gone. */
  after?: Record<string, unknown>;
  /** Outputs refresh recorded (for the read-error marker). */
  afterOutputs?: Record<string, unknown>;
  /** The program's inputs; undefined: no longer declared. */
  program?: Record<string, unknown>;
  op: OpType;
  extra?: Partial<StepEventMetadata>;
  refreshExtra?: Partial<StepEventMetadata>;
}

/** The events of a refresh-preview of these resources (stack and provider events included). */
export function previewEvents(resources: ResourceEvents[], stack = "dev"): EngineEvent[] {
  const stackUrn = urnOf(`proj-${stack}`, "pulumi:pulumi:Stack", stack);
  const providerUrn = urnOf("default", "pulumi:providers:krcloud", stack);
  const out: EngineEvent[] = [
    event({ resourcePreEvent: { metadata: { op: "refresh", urn: stackUrn, type: "pulumi:pulumi:Stack", provider: "" } } }),
    event({
      resOutputsEvent: {
        metadata: {
          op: "refresh",
          urn: providerUrn,
          type: "pulumi:providers:krcloud",
          provider: "",
          old: state(providerUrn, "pulumi:providers:krcloud", { authToken: SECRET_ENVELOPE }),
          new: state(providerUrn, "pulumi:providers:krcloud", { authToken: SECRET_ENVELOPE }),
        },
      },
    }),
  ];
  for (const r of resources) {
    const urn = urnOf(r.name, r.type, stack);
    out.push(event({ resourcePreEvent: { metadata: { op: "refresh", urn, type: r.type, provider: "prov", old: state(urn, r.type, r.before) } } }));
    const gone = r.after === undefined;
    out.push(
      event({
        resOutputsEvent: {
          metadata: {
            op: "refresh",
            urn,
            type: r.type,
            provider: "prov",
            old: state(urn, r.type, r.before),
            new: gone ? undefined : state(urn, r.type, r.after, r.afterOutputs),
            ...r.refreshExtra,
          },
        },
      }),
    );
  }
  // A provider whose config moved from the stack config to the environment: an update of its inputs.
  out.push(
    event({
      resourcePreEvent: {
        metadata: {
          op: "update",
          urn: providerUrn,
          type: "pulumi:providers:krcloud",
          provider: "",
          old: state(providerUrn, "pulumi:providers:krcloud", { authToken: SECRET_ENVELOPE }),
          new: state(providerUrn, "pulumi:providers:krcloud", {}),
        },
      },
    }),
  );
  for (const r of resources) {
    const urn = urnOf(r.name, r.type, stack);
    const old = r.op === "create" ? undefined : state(urn, r.type, r.after ?? r.before);
    out.push(event({ resourcePreEvent: { metadata: { op: r.op, urn, type: r.type, provider: "prov", old, new: state(urn, r.type, r.program), ...r.extra } } }));
  }
  return out;
}
