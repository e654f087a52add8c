/**
 * The identity decision (provider/core/identity.ts `identityOf`), case by case: the create key, the
 * generated name, whether the name is the provider's, and the key remembered for the engine's second
 * check of a replacement. The engine-level behaviour these rows make (a replacement never takes the
 * old name back, twin stacks never share a name) is tested through check in provider-recovery.test.ts.
 */
import { z } from "zod";
import { autoName, AUTONAMED_KEY, CREATE_KEY, createKeyOf, hexFrom, identityOf, UNKNOWN, type AnyDefinition, type IdentityFacts } from "../../../provider/core";

const inputs = () => z.object({ name: z.string(), size: z.number(), zone: z.string().default("a") }).strict();
const thing = {
  token: "krcloud:test:Thing",
  description: "test",
  inputs,
  outputs: inputs,
  replaceOn: { name: "a thing has no rename", zone: "a thing stays in its zone" },
  autoName: { property: "name", minLength: 4, maxLength: 30, lowerCase: true },
  describe: (id: string) => `thing "${id}"`,
  create: async () => ({ id: "", outs: {} }),
  read: async () => undefined,
  update: async () => ({}),
  delete: async () => undefined,
} as unknown as AnyDefinition;

const URN = "urn:pulumi:dev::proj::pulumi-nodejs:dynamic/krcloud/test:Thing::web";
const STACK = "3c1f6a52-0d1e-4c55-9b0a-1f1f2a3b4c5d";
const BASE = `${URN}\u0000${STACK}`;
const FIRST = createKeyOf(BASE, undefined);
/**
 * The keys a row names: the first create's, a replacement's of the recorded key "k-old" (or, for
 * state recorded before create keys, of the recorded name), one an earlier check remembered.
 */
const KEYS = {
  first: FIRST,
  replacement: createKeyOf(BASE, "k-old"),
  replacementOfName: createKeyOf(BASE, autoName("web", thing.autoName!, hexFrom(FIRST))),
  remembered: "0123456789abcdef0123456789abcdef",
  old: "k-old",
  unknown: UNKNOWN,
  none: undefined,
} as const;
type Key = keyof typeof KEYS;
const nameFrom = (key: Key) => (key === "unknown" ? UNKNOWN : autoName("web", thing.autoName!, hexFrom(KEYS[key]!)));

/** An auto-named thing "web" as recorded, created with key "k-old". */
const RECORDED = { name: nameFrom("first"), size: 1, zone: "a", [CREATE_KEY]: "k-old", [AUTONAMED_KEY]: true };

interface Row {
  case: string;
  olds?: Record<string, unknown>;
  program: Record<string, unknown>;
  stack?: unknown;
  remembered?: string;
  /** The create key recorded. */
  key: Key;
  /** The name generated from that key ("kept": none generated, the checked inputs keep theirs). */
  name: Key | "kept";
  autoNamed: boolean;
  /** The key remembered for the next check. */
  memo: Key;
  firstCheck: boolean;
}

const rows: Row[] = [
  { case: "new, auto-named", program: { size: 1 }, key: "first", name: "first", autoNamed: true, memo: "none", firstCheck: true },
  { case: "new, named by the program", program: { name: "mine", size: 1 }, key: "first", name: "kept", autoNamed: false, memo: "none", firstCheck: true },
  {
    case: "recorded, changed in place",
    olds: RECORDED,
    program: { size: 2 },
    key: "old",
    name: "kept",
    autoNamed: true,
    memo: "replacement",
    firstCheck: false,
  },
  {
    case: "recorded, replaced (a replace-on input changed)",
    olds: RECORDED,
    program: { size: 1, zone: "b" },
    key: "replacement",
    name: "replacement",
    autoNamed: true,
    memo: "replacement",
    firstCheck: false,
  },
  {
    case: "recorded and named, replaced",
    olds: { ...RECORDED, name: "mine", [AUTONAMED_KEY]: undefined },
    program: { name: "mine", size: 1, zone: "b" },
    key: "replacement",
    name: "kept",
    autoNamed: false,
    memo: "replacement",
    firstCheck: false,
  },
  {
    case: "the engine's second check of a replacement (no old inputs)",
    program: { size: 1, zone: "b" },
    remembered: KEYS.remembered,
    key: "remembered",
    name: "remembered",
    autoNamed: true,
    memo: "none",
    firstCheck: false,
  },
  {
    case: "new, in the preview of a new stack (its identity unknown)",
    program: { size: 1 },
    stack: UNKNOWN,
    key: "unknown",
    name: "unknown",
    autoNamed: true,
    memo: "none",
    firstCheck: true,
  },
  {
    case: "recorded, unknown stack, changed in place: the recorded key and name stand",
    olds: RECORDED,
    program: { size: 2 },
    stack: UNKNOWN,
    key: "old",
    name: "kept",
    autoNamed: true,
    memo: "none",
    firstCheck: false,
  },
  {
    case: "recorded, unknown stack, replaced",
    olds: RECORDED,
    program: { size: 1, zone: "b" },
    stack: UNKNOWN,
    key: "unknown",
    name: "unknown",
    autoNamed: true,
    memo: "none",
    firstCheck: false,
  },
  {
    case: "recorded before create keys existed, changed in place",
    olds: { ...RECORDED, [CREATE_KEY]: undefined },
    program: { size: 2 },
    key: "none",
    name: "kept",
    autoNamed: true,
    memo: "replacementOfName",
    firstCheck: false,
  },
  {
    case: "recorded, with a key an earlier check remembered: its own key stands",
    olds: RECORDED,
    program: { size: 2 },
    remembered: KEYS.remembered,
    key: "old",
    name: "kept",
    autoNamed: true,
    memo: "replacement",
    firstCheck: false,
  },
];

test.each(rows)("$case", (row) => {
  const checked = inputs().parse({ name: nameFrom("first"), ...row.program }) as Record<string, unknown>;
  const facts: IdentityFacts = {
    olds: row.olds ?? {},
    program: row.program,
    checked,
    logical: "web",
    urn: URN,
    stack: row.stack ?? STACK,
    remembered: row.remembered,
  };
  const identity = identityOf(thing, facts);
  expect(identity).toEqual({
    createKey: KEYS[row.key],
    name: row.name === "kept" ? undefined : nameFrom(row.name),
    autoNamed: row.autoNamed,
    memo: row.memo === "none" ? undefined : KEYS[row.memo],
    firstCheck: row.firstCheck,
  });
});

test("twin stacks (same URN, another backend) derive other keys and names; without a stack identity the URN alone", () => {
  const checked = inputs().parse({ name: "x", size: 1 }) as Record<string, unknown>;
  const of = (stack: unknown) => identityOf(thing, { olds: {}, program: { size: 1 }, checked, logical: "web", urn: URN, stack });
  expect(of("9e8d7c6b-5a49-4838-9726-150f0e0d0c0b").createKey).not.toBe(of(STACK).createKey);
  expect(of(undefined).createKey).toBe(createKeyOf(URN, undefined));
});
