/** Parameter groups (spec 02 §4.4). */

import { CacheInvalidArgumentError } from "../errors";
import { expandModifyParameterGroup } from "../expand";
import { orUndefined } from "../../core";
import { changePart, seg, type CacheHttp } from "./context";
import { flattenParameterGroup, flattenParameterGroupEvents, flattenParameterGroupList } from "../parse";
import type {
  ApplyMode,
  CreateParameterGroupInput,
  ListParameterGroupsOptions,
  ModifyParameterGroupInput,
  ObjectIdResult,
  ParameterGroup,
  ParameterGroupEvent,
  ParameterGroupSummary,
} from "../types";
import { formatFailures, validateModifyParameterGroupInput } from "../validate";

/**
 * Create's method and path are "not shown" (§4.4). POST on the collection is the reading: the
 * list is GET /v1/parameter-groups and every other create of this API is POST on its collection
 * (`/v1/clusters`, `/v1/instance-sets`, `…/shards`). The one place to change if the service differs.
 */
export const PARAMETER_GROUP_CREATE = Object.freeze({ method: "POST", path: "/v1/parameter-groups" } as const);

function groupPath(idOrName: string, action: string): string {
  return `/v1/parameter-groups/${seg(idOrName, "parameter group id or name", action)}`;
}

export class ParameterGroupApi {
  constructor(private readonly http: CacheHttp) {}

  /** Creates a custom group from a default group (`parameterGroupId`). 201 per §4.4, 200 per its status table. */
  async create(input: CreateParameterGroupInput): Promise<ObjectIdResult> {
    const action = `creating cache parameter group "${input.name}"`;
    const body: Record<string, unknown> = { parameterGroupId: input.parameterGroupId, name: input.name };
    if (input.description !== undefined) body.description = input.description;
    return this.http.objectId({
      operation: "CreateParameterGroup",
      method: PARAMETER_GROUP_CREATE.method,
      path: PARAMETER_GROUP_CREATE.path,
      body,
      expect: [200, 201],
      action,
      idempotent: false,
    });
  }

  /** GET /v1/parameter-groups?engineVersion&parameterGroupType&clusterMode (filters omitted when undefined). */
  async list(o: ListParameterGroupsOptions = {}): Promise<ParameterGroupSummary[]> {
    const action = "listing cache parameter groups";
    return this.http.read(
      {
        operation: "ListParameterGroups",
        method: "GET",
        path: "/v1/parameter-groups",
        query: { engineVersion: o.engineVersion, parameterGroupType: o.parameterGroupType, clusterMode: o.clusterMode },
        action,
        idempotent: true,
      },
      flattenParameterGroupList,
    );
  }

  /** GET /v1/parameter-groups/{id_or_name}: the group with its parameter catalogue. */
  async get(idOrName: string): Promise<ParameterGroup> {
    const action = `reading cache parameter group "${idOrName}"`;
    return this.http.read(
      { operation: "GetParameterGroup", method: "GET", path: groupPath(idOrName, action), action, idempotent: true },
      flattenParameterGroup,
    );
  }

  async find(idOrName: string): Promise<ParameterGroup | undefined> {
    return orUndefined(this.get(idOrName));
  }

  /**
   * PATCH: description and/or parameter values (absolute, so idempotent); `applyMode` is required
   * with parameters and checked before sending.
   */
  async modify(idOrName: string, input: ModifyParameterGroupInput): Promise<ObjectIdResult> {
    const action = `modifying cache parameter group "${idOrName}"`;
    const failures = validateModifyParameterGroupInput(input);
    if (failures.length) throw new CacheInvalidArgumentError(`${action}: ${formatFailures(failures)}`);
    return this.http.objectId(
      {
        operation: "ModifyParameterGroup",
        method: "PATCH",
        path: groupPath(idOrName, action),
        body: expandModifyParameterGroup(input),
        action,
        idempotent: true,
      },
      idOrName,
    );
  }

  /**
   * POST …/rollback `{applyMode}`: back to the previously used values. Not idempotent: a second
   * rollback after a lost answer would roll back from the rolled-back state.
   */
  async rollback(idOrName: string, applyMode?: ApplyMode): Promise<ObjectIdResult> {
    const action = `rolling back cache parameter group "${idOrName}"`;
    return changePart(this.http, "POST", groupPath(idOrName, action), "rollback", idOrName, {
      operation: "RollbackParameterGroup",
      body: applyMode === undefined ? {} : { applyMode },
      action,
      idempotent: false,
    });
  }

  /** POST …/reset `{applyMode}`: back to the default group's values; the same end state every time. */
  async reset(idOrName: string, applyMode: ApplyMode): Promise<ObjectIdResult> {
    const action = `resetting cache parameter group "${idOrName}"`;
    return changePart(this.http, "POST", groupPath(idOrName, action), "reset", idOrName, {
      operation: "ResetParameterGroup",
      body: { applyMode },
      action,
      idempotent: true,
    });
  }

  /** DELETE: the group must be unused (see ClusterApi.list with `parameterGroup`). */
  async delete(idOrName: string): Promise<ObjectIdResult> {
    const action = `deleting cache parameter group "${idOrName}"`;
    return this.http.objectId({ operation: "DeleteParameterGroup", method: "DELETE", path: groupPath(idOrName, action), action, idempotent: true }, idOrName);
  }

  /** GET …/events: events of the past 7 days (`Apply Parameter`, `Update Parameter`, ...). */
  async events(idOrName: string): Promise<ParameterGroupEvent[]> {
    const action = `listing the events of cache parameter group "${idOrName}"`;
    return this.http.read(
      {
        operation: "ListParameterGroupEvents",
        method: "GET",
        path: `${groupPath(idOrName, action)}/events`,
        action,
        idempotent: true,
      },
      flattenParameterGroupEvents,
    );
  }
}
