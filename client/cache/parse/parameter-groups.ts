/** Parameter groups, their parameter catalogue and events (spec 02 §2.3, §4.4). */

import { z } from "zod";
import { once } from "../../core";
import type { ParameterDefinition, ParameterGroup, ParameterGroupEvent, ParameterGroupSummary, ParameterValueKind } from "../types";
import { compact, fail, idFields, idValue, listOf, listReader, optBool, optNum, optStr, unwrap, withId } from "./readers";

const parameterGroupSummarySchema = once(() => {
  return z.looseObject({
    ...idFields(),
    parameterGroupId: idValue().optional().catch(undefined),
    engineVersion: optStr(),
    name: optStr(),
    description: optStr(),
    isDefault: optBool(),
    defaultParameterGroupId: optStr(),
    rollbackAvailable: optBool(),
    clusterModeEnabled: optBool(),
    existErrorSync: optBool(),
    clusterSize: optNum(),
    createdAt: optStr(),
    parameters: z.array(z.unknown()).nullish().catch(undefined),
  });
});

type SummaryData = z.infer<ReturnType<typeof parameterGroupSummarySchema>>;

function summaryFields(d: SummaryData, id: string, input: unknown): ParameterGroupSummary {
  const { parameters: _parameters, ...raw } = input as Record<string, unknown>;
  return compact({
    id,
    engineVersion: d.engineVersion,
    name: d.name,
    description: d.description,
    isDefault: d.isDefault,
    defaultParameterGroupId: d.defaultParameterGroupId === "" ? undefined : d.defaultParameterGroupId,
    rollbackAvailable: d.rollbackAvailable,
    clusterModeEnabled: d.clusterModeEnabled,
    existErrorSync: d.existErrorSync,
    clusterSize: d.clusterSize,
    createdAt: d.createdAt,
    raw: raw,
  });
}

function parseSummary(body: unknown, action: string, what: string): { d: SummaryData; id: string } {
  return withId(body, parameterGroupSummarySchema(), what, action, ["id", "objectId", "parameterGroupId"]);
}

export function flattenParameterGroupSummary(body: unknown, action: string): ParameterGroupSummary {
  const { d, id } = parseSummary(body, action, "parameter group");
  return summaryFields(d, id, body);
}

export const flattenParameterGroupList = listReader(flattenParameterGroupSummary, "parameterGroups", "parameter group list");

/** `NUMBER` (a sample) and `INTEGER` (the table) are one kind; unknown types are kept and not checked. */
export function parameterValueKind(dataType: string | undefined): ParameterValueKind {
  switch ((dataType ?? "").trim().toUpperCase()) {
    case "INTEGER":
    case "NUMBER":
    case "INT":
    case "LONG":
    case "FLOAT":
    case "DOUBLE":
      return "number";
    case "STRING":
      return "string";
    case "ENUM":
      return "enum";
    default:
      return "unknown";
  }
}

const parameterSchema = once(() => {
  return z.looseObject({
    parameterKey: idValue(),
    parameterType: optStr(),
    parameterValue: optStr(),
    defaultParameterValue: optStr(),
    dataType: optStr(),
    editable: optBool(),
    validationValueFormat: optStr(),
  });
});

export function flattenParameterDefinition(item: unknown, action: string): ParameterDefinition {
  const r = parameterSchema().safeParse(item);
  if (!r.success) return fail(action, "parameter", r.error);
  const d = r.data;
  return compact({
    parameterKey: d.parameterKey,
    parameterType: d.parameterType?.toUpperCase(),
    parameterValue: d.parameterValue,
    defaultParameterValue: d.defaultParameterValue,
    dataType: d.dataType?.toUpperCase(),
    valueKind: parameterValueKind(d.dataType ?? undefined),
    editable: d.editable,
    validationValueFormat: d.validationValueFormat,
  });
}

export function flattenParameterGroup(body: unknown, action: string): ParameterGroup {
  const input = unwrap(body, "parameterGroup");
  const { d, id } = parseSummary(input, action, "parameter group");
  return { ...summaryFields(d, id, input), parameters: (d.parameters ?? []).map((p) => flattenParameterDefinition(p, action)) };
}

export function flattenParameterGroupEvents(body: unknown, action: string): ParameterGroupEvent[] {
  const schema = z.looseObject({ eventName: optStr(), message: optStr(), createdAt: optStr() });
  return listOf(body, "events", action, "event list").map((item) => {
    const r = schema.safeParse(item);
    if (!r.success) return fail(action, "event", r.error);
    return compact<ParameterGroupEvent>({ eventName: r.data.eventName, message: r.data.message, createdAt: r.data.createdAt });
  });
}
