/**
 * Parameter groups (spec 02 §4.4) and the one cluster operation about them, retrying an apply
 * (§4.1). One method per operation; a change of a group's values reaches the clusters using it.
 */
import { BadRequest } from "../../core/errors";
import { invalidValue, PARAMETERS } from "../catalogue";
import {
  DefaultParameterGroup,
  DuplicateName,
  InvalidParameterGroup,
  InvalidParameterValue,
  NothingToRetry,
  ParameterGroupInUse,
  ParameterGroupNotFound,
  RollbackUnavailable,
} from "../errors";
import type { StoredCluster, StoredParameterGroup } from "../model";
import { newId, type CacheState } from "./state";

export class ParameterGroupBackend {
  constructor(private readonly state: CacheState) {}

  group(projectId: string, idOrName: string): StoredParameterGroup {
    const g = this.state.groups.get(idOrName) ?? [...this.state.groups.values()].find((x) => x.name === idOrName && (x.isDefault || x.projectId === projectId));
    if (!g || (!g.isDefault && g.projectId !== projectId)) throw new ParameterGroupNotFound(`No parameter group "${idOrName}".`);
    return g;
  }

  create(projectId: string, body: { parameterGroupId: string; name: string; description?: string }): string {
    const base = this.group(projectId, body.parameterGroupId);
    if (!base.isDefault) throw new InvalidParameterGroup("parameterGroupId: must name a default parameter group.");
    if ([...this.state.groups.values()].some((g) => g.name === body.name && (g.isDefault || g.projectId === projectId)))
      throw new DuplicateName(`A parameter group named "${body.name}" exists.`);
    const gid = newId("pg");
    this.state.groups.set(gid, {
      ...base,
      id: gid,
      projectId,
      name: body.name,
      description: body.description ?? "",
      isDefault: false,
      defaultParameterGroupId: base.id,
      values: { ...base.values },
      previous: undefined,
      events: [],
      createdAt: this.state.iso(),
    });
    return gid;
  }

  /** The project's custom groups and every default group, filtered as ListParameterGroups filters them. */
  list(projectId: string, filter: { engineVersion: string | null; isDefault?: boolean; clusterMode?: boolean }): StoredParameterGroup[] {
    const version = filter.engineVersion;
    return [...this.state.groups.values()].filter(
      (g) =>
        (g.isDefault || g.projectId === projectId) &&
        (!version || g.engineVersion === version || g.engineVersion.startsWith(`${version}.`)) &&
        (filter.isDefault === undefined || filter.isDefault === g.isDefault) &&
        (filter.clusterMode === undefined || filter.clusterMode === g.clusterMode),
    );
  }

  modify(
    projectId: string,
    idOrName: string,
    body: { description?: string; parameters?: { parameterKey: string; parameterValue: string }[]; applyMode?: string },
  ): string {
    const g = this.group(projectId, idOrName);
    if (g.isDefault) throw new DefaultParameterGroup("A default parameter group cannot be modified.");
    if (body.description !== undefined) g.description = body.description;
    if (body.parameters && body.parameters.length > 0) {
      if (body.applyMode !== "sequential" && body.applyMode !== "parallel")
        throw new BadRequest("applyMode: required with parameters, sequential or parallel.");
      const bad: string[] = [];
      for (const p of body.parameters) {
        const def = PARAMETERS.find((d) => d.parameterKey === p.parameterKey);
        if (!def) bad.push(`${p.parameterKey}: unknown parameter`);
        else if (!def.editable && p.parameterValue !== g.values[p.parameterKey]) bad.push(`${p.parameterKey}: not editable`);
        else {
          const why = invalidValue(def, String(p.parameterValue));
          if (why) bad.push(`${p.parameterKey}: ${why}`);
        }
      }
      if (bad.length) throw new InvalidParameterValue(`parameters: ${bad.join("; ")}`);
      g.previous = { ...g.values };
      for (const p of body.parameters) g.values[p.parameterKey] = String(p.parameterValue);
      g.events.push({
        eventName: "Update Parameter",
        message: body.parameters.map((p) => `${p.parameterKey}=${p.parameterValue}`).join(", "),
        createdAt: this.state.iso(),
      });
      this.apply(g, body.applyMode);
    }
    return g.id;
  }

  reset(projectId: string, idOrName: string, applyMode: unknown): string {
    const g = this.group(projectId, idOrName);
    if (applyMode !== "sequential" && applyMode !== "parallel") throw new BadRequest("applyMode: required, sequential or parallel.");
    g.previous = { ...g.values };
    g.values = Object.fromEntries(PARAMETERS.map((p) => [p.parameterKey, p.defaultParameterValue]));
    g.events.push({ eventName: "Update Parameter", message: "reset to the default values", createdAt: this.state.iso() });
    this.apply(g, applyMode);
    return g.id;
  }

  rollback(projectId: string, idOrName: string, applyMode: unknown): string {
    const g = this.group(projectId, idOrName);
    if (!g.previous) throw new RollbackUnavailable("Nothing to roll back to.");
    if (applyMode !== undefined && applyMode !== "sequential" && applyMode !== "parallel") throw new BadRequest("applyMode: sequential or parallel.");
    [g.values, g.previous] = [g.previous, undefined];
    g.events.push({ eventName: "Update Parameter", message: "rolled back to the previous values", createdAt: this.state.iso() });
    this.apply(g, applyMode ?? "parallel");
    return g.id;
  }

  delete(projectId: string, idOrName: string): string {
    const g = this.group(projectId, idOrName);
    if (g.isDefault) throw new DefaultParameterGroup("A default parameter group cannot be deleted.");
    const users = this.state.usersOf(g);
    if (users.length) throw new ParameterGroupInUse(`Parameter group "${g.name}" is used by ${users.map((u) => u.name).join(", ")}.`);
    this.state.groups.delete(g.id);
    return g.id;
  }

  /** POST /v1/clusters/{id}/parameter-group/apply: the cluster's group is applied again where its sync is not In-Sync. */
  retryApply(projectId: string, clusterId: string): string {
    const c = this.state.cluster(projectId, clusterId);
    const sync = this.state.statuses.sync(c, false);
    if (sync === "In-Sync") throw new NothingToRetry("The parameter group is in sync; nothing to retry.");
    const g = this.state.groups.get(c.parameterGroupId);
    g?.events.push({
      eventName: "Apply Parameter",
      message: `retry on ${c.name}${this.state.stickySyncErrors.has(c.id) ? ": failed (value refused by the engine)" : ""}`,
      createdAt: this.state.iso(),
    });
    this.state.beginSync(c, "parallel");
    return c.id;
  }

  /** The cluster uses group `g` from now on: its nodes get the group's values. */
  switchGroup(c: StoredCluster, g: StoredParameterGroup): void {
    c.parameterGroupId = g.id;
    this.state.beginSync(c, "parallel");
  }

  /** The group's values reach the clusters using it: their sync goes Applying -> In-Sync (or Error-Sync where a node refuses a value). */
  private apply(g: StoredParameterGroup, mode: unknown): void {
    const users = this.state.usersOf(g);
    if (users.length)
      g.events.push({ eventName: "Apply Parameter", message: `applying to ${users.length} cluster(s) (${String(mode)})`, createdAt: this.state.iso() });
    for (const c of users) this.state.beginSync(c, mode === "sequential" ? "sequential" : "parallel");
  }
}
