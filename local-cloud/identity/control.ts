/**
 * The identity service's part of the control API: it keeps no resources of its own. Tokens are
 * credentials, kept by the credential store with the keys they were issued for (reset, snapshot and
 * restore go with it) and served under /_control/tokens and /_control/credentials.
 */
import type { InventoryEntry } from "../core/http";
import { NoSuchKind } from "./errors";

export class IdentityControl {
  inventory(): InventoryEntry[] {
    return [];
  }

  getResource(kind: string, _id: string): unknown {
    throw new NoSuchKind(kind, ": see /_control/tokens");
  }

  patchResource(kind: string, _id: string, _patch: unknown): unknown {
    throw new NoSuchKind(kind);
  }

  deleteResource(kind: string, _id: string): void {
    throw new NoSuchKind(kind);
  }

  reset(): void {}

  snapshot(): unknown {
    return undefined;
  }

  restore(_data: unknown): void {}
}
