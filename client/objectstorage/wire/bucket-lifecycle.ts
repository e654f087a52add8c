/**
 * Lifecycle configuration XML (spec 2.3): `LifecycleConfiguration` > `Rule`* > `ID`?, `Prefix`,
 * `Status`, `Expiration` > `Days` | `Date`.
 *
 * Prefix placement: the spec's sample puts `Prefix` directly inside `Rule`, its field table lists it
 * under `Filter`. We write the sample's form and read either (also S3's `Filter/And/Prefix`), with
 * the direct one winning when both are present.
 */

import { InvalidArgumentError, ResponseFormatError } from "../errors";
import type { LifecycleRule, LifecycleStatus } from "../types";
import { buildXml, isRecord, parseXml, textOf } from "../xml";

import { LIFECYCLE_DATE, MAX_RULE_ID_LENGTH } from "../limits";

export { LIFECYCLE_DATE, MAX_RULE_ID_LENGTH } from "../limits";

function checkRule(r: LifecycleRule, i: number): void {
  const where = `lifecycle rule ${i + 1}${r.id !== undefined ? ` ("${r.id}")` : ""}`;
  if (typeof r.prefix !== "string") throw new InvalidArgumentError(`${where}: prefix is required (use "" for every object)`);
  if (r.id !== undefined && r.id.length > MAX_RULE_ID_LENGTH) throw new InvalidArgumentError(`${where}: id is longer than ${MAX_RULE_ID_LENGTH} characters`);
  if (r.status !== "Enabled" && r.status !== "Disabled") throw new InvalidArgumentError(`${where}: status must be Enabled or Disabled`);
  if ((r.days === undefined) === (r.date === undefined)) throw new InvalidArgumentError(`${where}: exactly one of days and date is required`);
  if (r.days !== undefined && !(Number.isInteger(r.days) && r.days > 0)) throw new InvalidArgumentError(`${where}: days must be a positive integer`);
  if (r.date !== undefined && !(LIFECYCLE_DATE.test(r.date) && !Number.isNaN(Date.parse(r.date)))) {
    throw new InvalidArgumentError(`${where}: date must be YYYY-MM-DDThh:mm:ss.000Z`);
  }
}

export function buildLifecycleXml(rules: readonly LifecycleRule[]): string {
  const ids = new Set<string>();
  rules.forEach((r, i) => {
    checkRule(r, i);
    if (r.id !== undefined) {
      if (ids.has(r.id)) throw new InvalidArgumentError(`lifecycle rule ${i + 1}: duplicate id "${r.id}"`);
      ids.add(r.id);
    }
  });
  const Rule = rules.map((r) => {
    const el: Record<string, unknown> = {};
    if (r.id !== undefined) el.ID = r.id;
    el.Prefix = r.prefix;
    el.Status = r.status;
    el.Expiration = r.days !== undefined ? { Days: String(r.days) } : { Date: r.date };
    return el;
  });
  return buildXml({ LifecycleConfiguration: { Rule } });
}

export function parseLifecycleXml(text: string): LifecycleRule[] {
  let doc: Record<string, unknown>;
  try {
    doc = parseXml(text, ["Rule"]);
  } catch (e) {
    throw new ResponseFormatError(`lifecycle configuration is not well-formed XML: ${(e as Error).message}`);
  }
  const root = doc.LifecycleConfiguration;
  if (root === undefined) throw new ResponseFormatError("lifecycle configuration has no LifecycleConfiguration element");
  const rules = isRecord(root) && Array.isArray(root.Rule) ? root.Rule : [];
  return rules.map((raw, i) => parseRule(raw, i));
}

function parseRule(raw: unknown, i: number): LifecycleRule {
  const r = isRecord(raw) ? raw : {};
  const filter = isRecord(r.Filter) ? r.Filter : {};
  const and = isRecord(filter.And) ? filter.And : {};
  const prefix = textOf(r.Prefix) ?? textOf(filter.Prefix) ?? textOf(and.Prefix) ?? "";
  const rule: LifecycleRule = { prefix, status: normalizeStatus(textOf(r.Status)) };
  const id = textOf(r.ID);
  if (id !== undefined) rule.id = id;
  const exp = isRecord(r.Expiration) ? r.Expiration : {};
  const days = textOf(exp.Days);
  const date = textOf(exp.Date);
  if (days !== undefined && days.trim() !== "") {
    const n = Number(days.trim());
    if (!Number.isInteger(n)) throw new ResponseFormatError(`lifecycle rule ${i + 1}: Days "${days}" is not an integer`);
    rule.days = n;
  } else if (date !== undefined && date.trim() !== "") {
    rule.date = date.trim();
  }
  return rule;
}

/** Tolerates case differences; an unknown value is passed through so the caller sees it as drift. */
function normalizeStatus(s: string | undefined): LifecycleStatus {
  const t = (s ?? "").trim();
  if (/^enabled$/i.test(t)) return "Enabled";
  if (/^disabled$/i.test(t)) return "Disabled";
  return t as LifecycleStatus;
}
