/** Key management's records (spec 03 A): keys with versions, each version holding its key material. */
import type { KeyObject } from "node:crypto";

export const SERVICE = "kms";
export type KeyType = "symmetric" | "asymmetric" | "mac";
export type VersionState = "Active" | "Deactivated";

export interface Version {
  version: number;
  state: VersionState;
  secret?: Buffer;
  privateKey?: KeyObject;
  publicKey?: KeyObject;
}

export interface Key {
  id: string;
  projectId: string;
  type: KeyType;
  versions: Version[];
  defaultVersion: number;
}

export const LIMITS = Object.freeze({ input: 4096, aad: 65536, content: 4096 });
