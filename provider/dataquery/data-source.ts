/**
 * krcloud:dataquery:DataSource — a MySQL or PostgreSQL data source for data queries. The service has
 * no update: every change replaces it, deleting first (names are unique). There is no get either:
 * read lists the data sources and filters by name. The password is a secret input, Base64-encoded
 * by the client for the wire; it is kept in state only as a secret (encrypted) and never appears in
 * logs or errors. Spec: 03-kms-dataquery-hadoop.md sections B.2, B.4, B.7, B.8.
 */
import { z } from "zod";
import { DATA_SOURCE_NAME, type DataQueryClient, type DataSource as DataSourceRecord } from "../../client/dataquery";
import { isNotFound, rethrowAs, withAction } from "../../client/core";
import {
  jsonEqual,
  markerOf,
  PartialFailure,
  defineResource,
  recordedDescription,
  resourceClass,
  splitDescription,
  taggedDescription,
  nonEmpty,
  listedByName,
  reasonFor,
} from "../core";
import { dataQuery } from "./client";
import { kmsEncrypted, oneOf, passwordOf } from "../kms/encrypted-input";
import type { DataSourceArgs } from "./args";

function dataSourceShape() {
  return z.strictObject({
    name: z
      .string()
      .regex(DATA_SOURCE_NAME, "must be 3 to 72 lower-case letters, digits or underscores")
      .describe("Data source name, unique in the project: 3 to 72 lower-case letters, digits, `_`. When omitted: the logical name plus a random suffix."),
    type: z.enum(["MYSQL", "POSTGRESQL"]).describe("`MYSQL` or `POSTGRESQL`."),
    scope: z.enum(["PRIVATE", "PUBLIC"]).default("PRIVATE").describe("`PRIVATE` (default) or `PUBLIC`."),
    description: z
      .string()
      .optional()
      .describe("Description. The service shows it followed by krcloud's ownership tag `[k:…]`, which krcloud never reports back."),
    instanceId: nonEmpty().describe("The database instance's id."),
    username: nonEmpty().describe("Database user name."),
    password: nonEmpty()
      .optional()
      .describe("Database password. Secret: sent Base64-encoded, stored encrypted in state, never shown. Or give `passwordCiphertext`."),
    passwordCiphertext: kmsEncrypted("The database password").optional(),
    databaseName: nonEmpty().optional().describe("Database name; required for PostgreSQL."),
    adopt: z
      .boolean()
      .default(false)
      .describe("If a data source with this name exists, manage it instead of failing (its type, scope and description must match)."),
  });
}

/** Inputs the service's list does not return (it shows name, type, scope and description only). */
const UNREADABLE = ["instanceId", "username", "password", "passwordCiphertext", "databaseName"] as const;
/** Why every input replaces. */
const NO_UPDATE = "the data query API has no update of a data source";

export function dataSourceInputs() {
  return dataSourceShape().superRefine((d, ctx) => {
    oneOf(ctx, [], d.password, d.passwordCiphertext, ["password", "passwordCiphertext"], true);
    if (d.type === "POSTGRESQL" && d.databaseName === undefined)
      ctx.addIssue({ code: "custom", path: ["databaseName"], message: "is required for a PostgreSQL data source" });
    if (d.type === "MYSQL" && d.databaseName !== undefined)
      ctx.addIssue({ code: "custom", path: ["databaseName"], message: "applies to PostgreSQL data sources only" });
  });
}
export type DataSourceInputs = z.infer<ReturnType<typeof dataSourceInputs>>;

export function dataSourceOutputs() {
  return dataSourceShape().extend({ creatorName: z.string().optional().describe("Who created it.") });
}
export type DataSourceOutputs = z.infer<ReturnType<typeof dataSourceOutputs>>;

export const dataSource = defineResource("krcloud:dataquery:DataSource", dataSourceInputs, dataSourceOutputs, {
  description: "A MySQL or PostgreSQL data source for data queries. Every change replaces it (the service has no update).",
  replaceOn: reasonFor(["name", "type", "scope", "description"], NO_UPDATE),
  // The service never returns these: an import (read from the name alone) records them empty, and
  // the program's values stand for them (writeOnly); a change of a recorded value replaces.
  replaceIf: Object.fromEntries(
    UNREADABLE.map((k) => [k, { when: (old: unknown, next: unknown) => old !== "" && old !== undefined && !jsonEqual(old, next), reason: NO_UPDATE }]),
  ),
  writeOnly: { paths: UNREADABLE },
  deleteBeforeReplace: true,
  localInputs: ["adopt"],
  secretInputs: ["password"],
  importId: "the data source name",
  offered: { instanceId: { hint: "give the id of a MySQL or PostgreSQL database instance of this project, of the data source's type" } },
  autoName: { property: "name", minLength: 3, maxLength: 40, lowerCase: true, separator: "_" },
  recovery: {
    find: async (ctx, inputs) => ((await find(dataQuery(ctx), inputs.name)) ? inputs.name : undefined),
    // The create request writes the marker as the description's trailing tag (ownership.ts).
    markerOf: async (ctx, id) => splitDescription((await find(dataQuery(ctx), id))?.description).marker,
  },
  describe: (id) => `data source "${id}"`,
  // The service lists them without pages; a data source's id is its name.
  list: listedByName(["data source", "data sources"], async (ctx) => (await dataQuery(ctx).listDataSources()).map((d) => ({ id: d.name, name: d.name }))),

  async create(ctx, inputs) {
    const c = dataQuery(ctx);
    const password = await passwordOf(ctx.settings, inputs.password, inputs.passwordCiphertext, `the password of data source "${inputs.name}"`);
    await c
      .createDataSource({ ...inputs, description: taggedDescription(inputs.description, markerOf(ctx.createKey)), password: password ?? "" })
      .catch(rethrowAs(`creating data source "${inputs.name}"`));
    // Created: its id is its name, so whatever fails below leaves it in state.
    try {
      const created = await find(c, inputs.name);
      if (!created) throw new Error(`data source "${inputs.name}" was not listed right after it was created`);
      return { id: inputs.name, outs: flatten(created, inputs) };
    } catch (e) {
      throw new PartialFailure(inputs.name, { ...inputs }, e);
    }
  },

  // The list is the only read there is (no single GET): a refresh of many is one walk.
  readsFromList: {
    walk: async (ctx) => new Map((await dataQuery(ctx).listDataSources().catch(rethrowAs("listing data sources"))).map((d) => [d.name, d] as const)),
    outputs: async (_ctx, _id, d: DataSourceRecord, olds) => flatten(d, olds),
  },

  async read(ctx, id, olds) {
    const d = await find(dataQuery(ctx), id);
    return d ? flatten(d, olds) : undefined;
  },

  // Every input replaces: nothing is left to change in place but the local `adopt`, and the values
  // an import could not read (recorded empty), which the program's values fill in.
  async update(_ctx, _id, current, news) {
    const filled = Object.fromEntries(UNREADABLE.filter((k) => current[k] === "" || current[k] === undefined).map((k) => [k, news[k]]));
    return { ...current, ...filled, adopt: news.adopt };
  },

  async delete(ctx, id) {
    try {
      await dataQuery(ctx).deleteDataSource(id);
    } catch (e) {
      if (isNotFound(e)) return;
      throw withAction(e, `deleting data source "${id}"`);
    }
  },
});

async function find(c: DataQueryClient, name: string): Promise<DataSourceRecord | undefined> {
  return c.findDataSource(name).catch(rethrowAs(`reading data source "${name}"`));
}

/** What the list shows (name, type, scope, description); what it cannot show comes from `prior`. */
function flatten(d: DataSourceRecord, prior: Partial<DataSourceInputs>): DataSourceOutputs {
  return {
    name: d.name,
    type: d.type === "POSTGRESQL" ? "POSTGRESQL" : "MYSQL",
    scope: d.scope === "PUBLIC" ? "PUBLIC" : "PRIVATE",
    description: recordedDescription(d.description, prior.description),
    instanceId: prior.instanceId ?? (typeof d.raw.instanceId === "string" ? d.raw.instanceId : ""),
    username: prior.username ?? (typeof d.raw.username === "string" ? d.raw.username : ""),
    password: prior.password ?? (prior.passwordCiphertext === undefined ? "" : undefined),
    passwordCiphertext: prior.passwordCiphertext,
    databaseName: prior.databaseName ?? (typeof d.raw.databaseName === "string" ? d.raw.databaseName : undefined),
    adopt: prior.adopt ?? false,
    creatorName: d.creatorName,
  };
}

// ---------------------------------------------------------------------------------------------
// The class users instantiate

// The args type, with a doc comment on every property, is generated from schema.json (tools/gen-args.ts).
export type { DataSourceArgs } from "./args";
/** A MySQL or PostgreSQL data source. The password is always a secret, whatever the program passed. */
export const DataSource = resourceClass<DataSourceArgs, DataSourceOutputs>(dataSource);
export type DataSource = InstanceType<typeof DataSource>;
