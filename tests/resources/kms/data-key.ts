/**
 * The test fixture of DataKey (`krcloud:kms:DataKey`, provider/kms/data-key.ts): every fact the
 * tests that walk the types need (tests/resources/fixture.ts says what each is; index.ts derives
 * the tables from them).
 */
import type { TypeRules } from "../../support/inputs/cross-field";
import type { Input } from "../../support/inputs/rules";
import type { CloudKind, DriftFact, FaultRow, OutsideFact, SecretsFact, ZeroDiffSpec } from "../fixture";
import type { Entry } from "../../support/faults/sim-stack";
import { ciphertextKind, KMS_UNVERIFIABLE, NO_RECORD, NOTHING_FOUND, RECORDED_ONLY } from "./ciphertext";

/** Inputs check accepts, with every secret-bearing input set. */
export const valid: Input = { keyId: "key-1" };

/** The rules of its inputs that tie several properties together. */
export function crossFieldRules(): TypeRules {
  return { rules: [] };
}

/** Its row of the fault matrix. */
export const faultRow: FaultRow = {
  args: (p) => ({ keyId: p.keyId }),
  ops: { create: "GenerateDataKey" },
  na: { update: "every change replaces", read: RECORDED_ONLY, delete: RECORDED_ONLY },
  noName: NOTHING_FOUND,
};

/** Its resources in the zero-diff suite's specs. */
export const zeroDiffSpec: ZeroDiffSpec = {
  base: ({ fx, r }) => [r("datakey", "krcloud:kms:DataKey", { keyId: fx.keyId })],
  varied: ({ fx, r }) => [r("datakey", "krcloud:kms:DataKey", { keyId: fx.keyId, triggers: {} })],
};

/** What the cloud holds for it: its ciphertext, there while it decrypts. */
export const cloudKinds = (e: Entry): CloudKind[] => ciphertextKind(e);

export const drift: DriftFact = { none: KMS_UNVERIFIABLE };

export const outside: OutsideFact = { none: NO_RECORD };

export const secrets: SecretsFact = { none: "no secret input: its plaintext is an output" };
