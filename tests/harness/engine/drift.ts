/**
 * Drift recipes (re-exported by index.ts): how to change each resource type behind Pulumi's back
 * through the control API, what the engine must then report, and how to tell that `up` put it
 * back. An example program is tested with the recipes of the types it uses; a new resource type
 * adds its recipe here.
 */
import type { Control } from "./cloud";
import { engineType, isSecret, md5, type StateResource } from "./state";

export interface DriftRecipe {
  token: string;
  /** Control API service and kind of the record behind a resource (the control id is the resource id). */
  service: string;
  kind: string;
  /** True for the resource others hang off (the bucket): deleting it takes its dependents along. */
  root?: boolean;
  /** The part of the control record that the program manages, to compare before drift and after up. */
  snapshot(record: Record<string, unknown>): unknown;
  /** Changes the resource behind Pulumi's back; returns the input properties expected to show as drifted. */
  drift(control: Control, r: StateResource): Promise<string[]>;
  /** After `refresh`: the drifted value as recorded in state (outputs; secret outputs are skipped). */
  recorded(outputs: Record<string, unknown>): boolean;
}

const OS = "object-storage";
const DRIFT_ORIGIN = "https://drift.invalid";
const DRIFT_LIFECYCLE =
  "<LifecycleConfiguration><Rule><ID>drift</ID><Prefix>drift/</Prefix><Status>Disabled</Status><Expiration><Days>1</Days></Expiration></Rule></LifecycleConfiguration>";
export const DEFACED = "<h1>defaced behind Pulumi's back</h1>\n";

export const DRIFT_RECIPES: DriftRecipe[] = [
  {
    token: "krcloud:objectstorage:Bucket",
    service: OS,
    kind: "bucket",
    root: true,
    // krcloud's ownership markers (`krcloud-*` metadata) are its own, not the program's state.
    snapshot: (rec) => ({ acl: (rec.acl as { public?: string } | null)?.public ?? "deny", metadata: programMetadata(rec.metadata) }),
    async drift(control, r) {
      const rec = (await control.getResource(OS, "bucket", r.id!))!;
      const isPublic = (rec.acl as { public?: string } | null)?.public === "read-only";
      const hadMetadata = Object.keys(programMetadata(rec.metadata)).length > 0;
      await control.patchResource(OS, "bucket", r.id!, { acl: { public: isPublic ? "deny" : "read-only" }, metadata: null });
      driftedAcl.set(r.id!, isPublic ? "deny" : "read-only");
      return hadMetadata ? ["acl", "metadata"] : ["acl"];
    },
    recorded: (outs) => isSecret(outs.acl) || (outs.acl as { public?: string })?.public === driftedAcl.get(outs.name as string),
  },
  {
    token: "krcloud:objectstorage:BucketCors",
    service: OS,
    kind: "bucket-cors",
    snapshot: (rec) => rec.cors,
    async drift(control, r) {
      await control.patchResource(OS, "bucket-cors", r.id!, { cors: [{ allowed_origins: [DRIFT_ORIGIN], allowed_methods: ["PUT"] }] });
      return ["rules"];
    },
    recorded: (outs) => isSecret(outs.rules) || JSON.stringify(outs.rules).includes(DRIFT_ORIGIN),
  },
  {
    token: "krcloud:objectstorage:BucketLifecycle",
    service: OS,
    kind: "bucket-lifecycle",
    snapshot: (rec) => rec.lifecycle,
    async drift(control, r) {
      await control.patchResource(OS, "bucket-lifecycle", r.id!, { lifecycle: DRIFT_LIFECYCLE });
      return ["rules"];
    },
    recorded: (outs) => isSecret(outs.rules) || (outs.rules as { prefix?: string }[])?.[0]?.prefix === "drift/",
  },
  {
    token: "krcloud:objectstorage:BucketObject",
    service: OS,
    kind: "object",
    snapshot: (rec) => ({ hash: rec.hash, metadata: rec.metadata, contentType: rec.content_type }),
    async drift(control, r) {
      if (r.outputs?.folder === true) {
        await control.patchResource(OS, "object", r.id!, { metadata: { drifted: "yes" } });
        return ["metadata"];
      }
      // A defaced page: the content changes, so its MD5 no longer matches the source file.
      await control.patchResource(OS, "object", r.id!, { content: DEFACED });
      return ["contentMd5"];
    },
    recorded: (outs) =>
      outs.folder === true ? isSecret(outs.metadata) || (outs.metadata as Record<string, string>)?.drifted === "yes" : outs.contentMd5 === md5(DEFACED),
  },
];

const CACHE = "cache";
const DRIFTED = "drifted behind Pulumi's back";
const cacheDescriptionDrift =
  (kind: string) =>
  async (control: Control, r: StateResource): Promise<string[]> => {
    await control.patchResource(CACHE, kind, r.id!, { description: DRIFTED });
    return ["description"];
  };

DRIFT_RECIPES.push(
  {
    token: "krcloud:cache:ParameterGroup",
    service: CACHE,
    kind: "parameter-group",
    root: true,
    snapshot: (rec) =>
      Object.fromEntries((rec.parameters as { parameterKey: string; parameterValue: string }[]).map((p) => [p.parameterKey, p.parameterValue])),
    async drift(control, r) {
      await control.patchResource(CACHE, "parameter-group", r.id!, { values: { timeout: "1" } });
      return ["parameters"];
    },
    recorded: (outs) => isSecret(outs.parameters) || (outs.parameters as Record<string, string>)?.timeout === "1",
  },
  {
    token: "krcloud:cache:Cluster",
    service: CACHE,
    kind: "cluster",
    root: true,
    snapshot: (rec) => ({ description: rec.description, shardCount: rec.shardCount, totalNodeCount: rec.totalNodeCount, version: rec.version }),
    drift: cacheDescriptionDrift("cluster"),
    recorded: (outs) => outs.description === DRIFTED,
  },
  {
    token: "krcloud:cache:InstanceSet",
    service: CACHE,
    kind: "instance-set",
    root: true,
    snapshot: (rec) => ({
      description: rec.description,
      totalNodeCount: rec.totalNodeCount,
      recoveryEnabled: rec.recoveryEnabled,
      backupSchedule: rec.backupSchedule,
    }),
    drift: cacheDescriptionDrift("instance-set"),
    recorded: (outs) => outs.description === DRIFTED,
  },
);

/** The ACL each drifted bucket was given (recorded() gets only outputs). */
const driftedAcl = new Map<string, string>();

export function recipeFor(type: string): DriftRecipe | undefined {
  return DRIFT_RECIPES.find((r) => engineType(r.token) === type);
}

/** The control record behind a state resource, or undefined when the cloud no longer has it. */
export async function cloudSnapshot(control: Control, r: StateResource): Promise<unknown> {
  const recipe = recipeFor(r.type);
  if (!recipe || !r.id) return undefined;
  const rec = await control.getResource(recipe.service, recipe.kind, r.id);
  return rec === undefined ? undefined : recipe.snapshot(rec);
}

/** Metadata without the keys krcloud keeps for its ownership markers. */
function programMetadata(m: unknown): Record<string, string> {
  return Object.fromEntries(Object.entries((m as Record<string, string> | null) ?? {}).filter(([k]) => !k.startsWith("krcloud-")));
}
