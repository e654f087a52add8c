/**
 * The rows of the fault matrix, one per resource type, each from its type's fixture (`faultRow` in
 * tests/resources/<module>/<noun>.ts): a program that makes it (and what it depends on), an update
 * that reaches the cloud, the request each column's fault targets, and how it meets the stuck and
 * FAILED cells. The target operations are the local cloud's operation names (its request log shows
 * them); a cell whose fault never fires fails, so a wrong name cannot pass unnoticed.
 */
import { fixtureOf, resourceTypes } from "../../resources";
import type { TypeSpec } from "./columns";

/**
 * The test files the matrix runs in (tests/faults/<file>.test.ts), the services of each (a token's
 * module) and each one's name in the control API, where its rows' faults and transitions are set;
 * every service with a resource type is in one (tests/unit/new-resource.test.ts checks).
 */
export const FAULT_FILES = {
  "objectstorage-kms": { objectstorage: "object-storage", kms: "kms" },
  cache: { cache: "cache" },
  "dataquery-hadoop": { dataquery: "data-query", hadoop: "hadoop" },
} as const satisfies Record<string, Readonly<Record<string, string>>>;

/** The rows of one test file, its services' types in the package's order. */
export function faultRows(file: keyof typeof FAULT_FILES): TypeSpec[] {
  const services: Readonly<Record<string, string>> = FAULT_FILES[file];
  return resourceTypes().flatMap((token) => {
    const service = services[token.split(":")[1] ?? ""];
    return service === undefined ? [] : [{ token, service, ...fixtureOf(token).faultRow }];
  });
}
