/**
 * The test fixture of Ciphertext (`krcloud:kms:Ciphertext`, provider/kms/ciphertext.ts): every
 * fact the tests that walk the types need (tests/resources/fixture.ts says what each is; index.ts
 * derives the tables from them).
 */
import type { TypeRules } from "../../support/inputs/cross-field";
import type { Entry } from "../../support/faults/sim-stack";
import type { Input } from "../../support/inputs/rules";
import { SECRET_MARK, type CloudKind, type DriftFact, type FaultRow, type OutsideFact, type SecretsFact, type ZeroDiffSpec } from "../fixture";

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

/**
 * What the cloud holds for a KMS resource: a ciphertext, which no inventory lists; it is there while
 * it decrypts (to the recorded plaintext, when `plaintext` says which).
 */
export function ciphertextKind(e: Entry, plaintext?: unknown): CloudKind[] {
  const o = e.outputs;
  return [
    {
      kind: "kms/ciphertext",
      id: e.id,
      present: async (p) => {
        const plain = await p.kms
          .decrypt(String(o.keyId), { ciphertext: String(o.ciphertext), ...(typeof o.aad === "string" ? { aad: o.aad } : {}) })
          .catch(() => undefined);
        return plain !== undefined && (plaintext === undefined || plain === plaintext);
      },
    },
  ];
}

/** What the cloud holds for it: its ciphertext, there while it decrypts to the plaintext. */
export const cloudKinds = (e: Entry): CloudKind[] => ciphertextKind(e, e.outputs.plaintext);

export const KMS_UNVERIFIABLE = "the key management service keeps nothing to compare with: the drift check reports it unverifiable";
export const NO_RECORD = "the key management service keeps no record of what it encrypted or generated: nothing to adopt or import";

export const drift: DriftFact = { none: KMS_UNVERIFIABLE };

export const outside: OutsideFact = { none: NO_RECORD };

export const secrets: SecretsFact = {
  none: "its plaintext is what it encrypts: given as a KMS ciphertext it would be encrypted twice (the scan stack holds its plaintext, which must be nowhere in clear)",
};
