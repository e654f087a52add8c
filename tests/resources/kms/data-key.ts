/**
 * The test fixture of DataKey (`krcloud:kms:DataKey`, provider/kms/data-key.ts): its valid inputs,
 * the cross-field rules of its inputs, its row of the fault matrix and its resources in the
 * zero-diff specs (tests/resources/fixture.ts says what each is; index.ts derives the tables from
 * them).
 */
import type { TypeRules } from "../../support/inputs/cross-field";
import type { Input } from "../../support/inputs/rules";
import type { FaultRow, ZeroDiffSpec } from "../fixture";
import { NOTHING_FOUND, RECORDED_ONLY } from "./ciphertext";

/** Inputs check accepts, with every secret-bearing input set. */
export const valid: Input = { keyId: "key-1" };

/** The rules of its inputs that tie several properties together. */
export function crossFieldRules(): TypeRules {
  return { rules: [] };
}

/** Its row of the fault matrix. */
export const faultRow: FaultRow = {
  service: "kms",
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
