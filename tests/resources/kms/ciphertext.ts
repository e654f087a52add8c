/**
 * The test fixture of Ciphertext (`krcloud:kms:Ciphertext`, provider/kms/ciphertext.ts): its valid
 * inputs, the cross-field rules of its inputs, its row of the fault matrix and its resources in the
 * zero-diff specs (tests/resources/fixture.ts says what each is; index.ts derives the tables from
 * them).
 */
import type { TypeRules } from "../../support/inputs/cross-field";
import type { Input } from "../../support/inputs/rules";
import { SECRET_MARK, type FaultRow, type ZeroDiffSpec } from "../fixture";

export const RECORDED_ONLY = "recorded only: no request";
export const NOTHING_FOUND = "no name: nothing of another stack is ever found or taken over (recorded only)";

/** Inputs check accepts, with every secret-bearing input set. */
export const valid: Input = { keyId: "key-1", plaintext: SECRET_MARK };

/** The rules of its inputs that tie several properties together. */
export function crossFieldRules(): TypeRules {
  return { rules: [] };
}

/** Its row of the fault matrix. */
export const faultRow: FaultRow = {
  service: "kms",
  args: (p) => ({ keyId: p.keyId, plaintext: "matrix-plaintext-1" }),
  ops: { create: "Encrypt" },
  na: { update: "every change replaces", read: RECORDED_ONLY, delete: RECORDED_ONLY },
  noName: NOTHING_FOUND,
};

/** Its resources in the zero-diff suite's specs. */
export const zeroDiffSpec: ZeroDiffSpec = {
  base: ({ fx, s, r }) => [r("cipher", "krcloud:kms:Ciphertext", { keyId: fx.keyId, plaintext: s.kmsPlaintext })],
  varied: ({ fx, s, r }) => [
    r("cipher", "krcloud:kms:Ciphertext", { keyId: fx.keyId, plaintext: s.kmsPlaintext, aad: "context=ünï", triggers: { zeta: "2", alpha: "1" } }),
  ],
};
