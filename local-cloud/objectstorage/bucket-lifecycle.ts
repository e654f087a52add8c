import { buildXml, elementKeys, parseXml } from "../core/xml";
import { InvalidLifecycleConfiguration, MalformedXml } from "./errors";
import { LIMITS } from "./limits";
import { isApiError } from "../core/errors";

/** One rule of spec section 2.3, keeping where the client placed Prefix so GET echoes it back the same way. */
export interface LifecycleRule {
  id?: string;
  prefix: string;
  prefixIn: "rule" | "filter";
  status: "Enabled" | "Disabled";
  days?: number;
  date?: string;
}

export interface LifecycleConfiguration {
  rules: LifecycleRule[];
}

const MAX_RULES = 1000;
const DATE_SHAPE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.000Z$/;

function fail(message: string): never {
  throw new InvalidLifecycleConfiguration(message);
}

function text(node: unknown, what: string): string {
  if (typeof node === "string") return node;
  if (node !== null && typeof node === "object" && !Array.isArray(node) && elementKeys(node as Record<string, unknown>).length === 0) {
    const inner = (node as Record<string, unknown>)["#text"];
    return typeof inner === "string" ? inner : "";
  }
  return fail(`${what} must be a single text element.`);
}

function element(node: unknown, what: string): Record<string, unknown> {
  if (node === "") return {};
  if (node === null || typeof node !== "object" || Array.isArray(node)) fail(`${what} must be a single element with child elements.`);
  return node as Record<string, unknown>;
}

function onlyKeys(node: Record<string, unknown>, allowed: string[], what: string): void {
  for (const key of elementKeys(node)) {
    if (!allowed.includes(key)) fail(`Unsupported element <${key}> in ${what}; allowed: ${allowed.join(", ")}.`);
    if (Array.isArray(node[key])) fail(`<${key}> may appear only once in ${what}.`);
  }
}

function validDate(value: string): boolean {
  const m = DATE_SHAPE.exec(value);
  if (!m) return false;
  const date = new Date(value);
  return !Number.isNaN(date.getTime()) && date.toISOString() === value;
}

/** Parses and validates a PutBucketLifecycleConfiguration body. */
export function parseLifecycle(xml: string): LifecycleConfiguration {
  let doc: Record<string, unknown>;
  try {
    doc = parseXml(xml, (path) => path === "LifecycleConfiguration.Rule");
  } catch (error) {
    if (isApiError(error)) throw new MalformedXml(error.message);
    throw error;
  }
  const roots = elementKeys(doc);
  if (roots.length !== 1 || roots[0] !== "LifecycleConfiguration") fail("The root element must be <LifecycleConfiguration>.");
  const root = element(doc.LifecycleConfiguration, "LifecycleConfiguration");
  onlyKeys({ ...root, Rule: undefined }, ["Rule"], "LifecycleConfiguration");
  const ruleNodes = (root.Rule ?? []) as unknown[];
  if (ruleNodes.length === 0) fail("At least one <Rule> is required.");
  if (ruleNodes.length > MAX_RULES) fail(`At most ${MAX_RULES} rules are allowed.`);
  const ids = new Set<string>();
  const rules = ruleNodes.map((raw, index): LifecycleRule => {
    const where = `Rule ${index + 1}`;
    const node = element(raw, where);
    onlyKeys(node, ["ID", "Prefix", "Filter", "Status", "Expiration"], where);
    const rule: Partial<LifecycleRule> = {};
    if ("ID" in node) {
      const id = text(node.ID, `${where} ID`);
      if (id.length > LIMITS.maxLifecycleId) fail(`${where}: ID is longer than ${LIMITS.maxLifecycleId} characters.`);
      if (ids.has(id)) fail(`${where}: ID "${id.slice(0, 80)}" is not unique.`);
      ids.add(id);
      rule.id = id;
    }
    const hasRulePrefix = "Prefix" in node;
    const hasFilter = "Filter" in node;
    if (hasRulePrefix && hasFilter) fail(`${where}: give Prefix either directly in Rule or inside Filter, not both.`);
    if (hasRulePrefix) {
      rule.prefix = text(node.Prefix, `${where} Prefix`);
      rule.prefixIn = "rule";
    } else if (hasFilter) {
      const filter = element(node.Filter, `${where} Filter`);
      onlyKeys(filter, ["Prefix"], `${where} Filter`);
      if (!("Prefix" in filter)) fail(`${where}: Filter must contain Prefix.`);
      rule.prefix = text(filter.Prefix, `${where} Filter/Prefix`);
      rule.prefixIn = "filter";
    } else {
      fail(`${where}: Prefix is required (directly in Rule or in Filter).`);
    }
    if (!("Status" in node)) fail(`${where}: Status is required.`);
    const status = text(node.Status, `${where} Status`).trim();
    if (status !== "Enabled" && status !== "Disabled") fail(`${where}: Status must be Enabled or Disabled.`);
    rule.status = status;
    if (!("Expiration" in node)) fail(`${where}: Expiration is required.`);
    const expiration = element(node.Expiration, `${where} Expiration`);
    onlyKeys(expiration, ["Date", "Days"], `${where} Expiration`);
    const hasDays = "Days" in expiration;
    const hasDate = "Date" in expiration;
    if (hasDays === hasDate) fail(`${where}: Expiration must contain exactly one of Date or Days.`);
    if (hasDays) {
      const days = text(expiration.Days, `${where} Days`).trim();
      if (!/^[1-9]\d{0,8}$/.test(days)) fail(`${where}: Days must be a positive integer.`);
      rule.days = Number(days);
    } else {
      const date = text(expiration.Date, `${where} Date`).trim();
      if (!validDate(date)) fail(`${where}: Date must be a valid GMT ISO 8601 time shaped YYYY-MM-DDThh:mm:ss.000Z.`);
      rule.date = date;
    }
    return rule as LifecycleRule;
  });
  return { rules };
}

/** The configuration as XML (PUT echo and GET). */
export function lifecycleXml(config: LifecycleConfiguration): string {
  return buildXml({
    LifecycleConfiguration: {
      Rule: config.rules.map((rule) => ({
        ...(rule.id !== undefined ? { ID: rule.id } : {}),
        ...(rule.prefixIn === "filter" ? { Filter: { Prefix: rule.prefix } } : { Prefix: rule.prefix }),
        Status: rule.status,
        Expiration: rule.days !== undefined ? { Days: rule.days } : { Date: rule.date },
      })),
    },
  });
}

/**
 * Whether an object created at `createdAt` has expired under an enabled rule when lifecycle runs
 * at `boundary` (00:00 UTC): Days counts whole days since creation, Date must have passed.
 */
export function isExpired(rule: LifecycleRule, name: string, createdAt: number, boundary: number): boolean {
  if (rule.status !== "Enabled" || !name.startsWith(rule.prefix)) return false;
  if (rule.days !== undefined) return boundary - createdAt >= rule.days * 86_400_000;
  return rule.date !== undefined && boundary >= Date.parse(rule.date);
}
