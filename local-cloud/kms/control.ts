/**
 * Key management's part of the control API (kind `key`). Keys are made here (the API reference
 * shows no key management endpoint): `PATCH /_control/resources/kms/key/{keyId}` with
 * `{projectId, type}` creates one (`symmetric`, `asymmetric` or `mac`), `{state: 'Deactivated'|'Active'}`
 * sets its default version's state (or version `version`'s), `{rotate: true}` adds a version and
 * makes it the default; `DELETE` removes the key. Documented in docs/local-cloud.md.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes } from "node:crypto";
import { z } from "zod";
import { isValidProjectId } from "../core/credentials";
import { BadRequest, NoSuchKind, NoSuchResource } from "../core/errors";
import type { InventoryEntry } from "../core/http";
import { parseWith } from "../core/input";
import type { KmsBackend } from "./backend";
import { SERVICE, type Key, type Version, type VersionState } from "./model";

const keyPatch = z.strictObject({
  projectId: z.string().refine(isValidProjectId, "a project id (1-32 letters, digits, - and _)").optional(),
  type: z.enum(["symmetric", "asymmetric", "mac"]).optional(),
  state: z.enum(["Active", "Deactivated"]).optional(),
  rotate: z.literal(true).optional(),
  version: z.number().int().min(1).max(1_000_000).optional(),
});

/** What the control API may change on a key. */
type KeyPatch = z.infer<typeof keyPatch>;

export class KmsControl {
  constructor(private readonly backend: KmsBackend) {}

  inventory(): InventoryEntry[] {
    return [...this.backend.keys.values()].map((k) => ({ service: SERVICE, kind: "key", id: k.id, projectId: k.projectId }));
  }

  getResource(kind: string, id: string): unknown {
    return view(this.key(kind, id));
  }

  patchResource(kind: string, id: string, patch: unknown): unknown {
    keysOnly(kind);
    return this.upsert(id, parseWith(keyPatch, patch ?? {}));
  }

  deleteResource(kind: string, id: string): void {
    const k = this.key(kind, id);
    if (!this.backend.keys.delete(k.id)) throw new NoSuchResource(`No key "${k.id}".`);
  }

  reset(): void {
    this.backend.keys.clear();
  }

  snapshot(): unknown {
    return [...this.backend.keys.values()].map((k) => ({
      ...k,
      versions: k.versions.map((v) => ({
        version: v.version,
        state: v.state,
        secret: v.secret?.toString("base64"),
        privateKey: v.privateKey?.export({ type: "pkcs8", format: "pem" }),
        publicKey: v.publicKey?.export({ type: "spki", format: "pem" }),
      })),
    }));
  }

  restore(data: unknown): void {
    this.backend.keys.clear();
    type Saved = Omit<Key, "versions"> & {
      versions: Array<{ version: number; state: VersionState; secret?: string; privateKey?: string; publicKey?: string }>;
    };
    for (const k of (data as Saved[] | undefined) ?? []) {
      this.backend.keys.set(k.id, {
        ...k,
        versions: k.versions.map((v) => ({
          version: v.version,
          state: v.state,
          secret: v.secret ? Buffer.from(v.secret, "base64") : undefined,
          privateKey: v.privateKey ? createPrivateKey(v.privateKey) : undefined,
          publicKey: v.publicKey ? createPublicKey(v.publicKey) : undefined,
        })),
      });
    }
  }

  private key(kind: string, id: string): Key {
    keysOnly(kind);
    const k = this.backend.keys.get(id);
    if (!k) throw new NoSuchResource(`No key "${id.slice(0, 200)}".`);
    return k;
  }

  /**
   * Creates or changes a key: `{projectId, type}` creates it; afterwards `{rotate: true}` adds a
   * version that becomes the default, `{state}` sets the state of the default version (or of
   * `version`). A key's project and type never change.
   */
  private upsert(id: string, patch: KeyPatch): unknown {
    const existing = this.backend.keys.get(id);
    if (existing) {
      if ((patch.projectId ?? existing.projectId) !== existing.projectId || (patch.type ?? existing.type) !== existing.type)
        throw new BadRequest(`Key "${id}" belongs to project ${existing.projectId} and is ${existing.type}: neither changes.`);
    } else if (patch.type === undefined || patch.projectId === undefined) {
      throw new BadRequest("projectId and type (symmetric, asymmetric or mac) are required to create a key.");
    }
    const versions = existing?.versions.length ?? 1;
    if (patch.version !== undefined && patch.version > versions) throw new BadRequest(`version: key "${id}" has versions 1 to ${versions}.`);
    let k = existing;
    if (!k) {
      k = { id, projectId: patch.projectId!, type: patch.type!, versions: [], defaultVersion: 0 };
      this.backend.keys.set(id, k);
      rotate(k);
    } else if (patch.rotate) {
      rotate(k);
    }
    if (patch.state !== undefined) k.versions[(patch.version ?? k.defaultVersion) - 1]!.state = patch.state;
    return view(k);
  }
}

function keysOnly(kind: string): void {
  if (kind !== "key") throw new NoSuchKind(kind, "key");
}

/** A new version with new key material becomes the default. */
function rotate(k: Key): void {
  const version = k.versions.length + 1;
  const v: Version = { version, state: "Active" };
  if (k.type === "asymmetric") {
    const pair = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
    v.privateKey = pair.privateKey;
    v.publicKey = pair.publicKey;
  } else {
    v.secret = randomBytes(32);
  }
  k.versions.push(v);
  k.defaultVersion = version;
}

function view(k: Key): Record<string, unknown> {
  return {
    id: k.id,
    projectId: k.projectId,
    type: k.type,
    defaultVersion: k.defaultVersion,
    versions: k.versions.map((v) => ({ version: v.version, state: v.state })),
  };
}
