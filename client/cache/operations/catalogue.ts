/** Shared lookups (spec 02 §4.1): engine versions and flavors. */

import type { CacheHttp } from "./context";
import { flattenFlavors, flattenVersions } from "../parse";
import type { Flavor } from "../types";

export class CatalogueApi {
  constructor(private readonly http: CacheHttp) {}

  /** GET /v1/redis/versions: engine versions, as a list of strings. */
  async listVersions(): Promise<string[]> {
    const action = "listing cache engine versions";
    return this.http.read({ operation: "ListVersions", method: "GET", path: "/v1/redis/versions", action, idempotent: true }, flattenVersions);
  }

  /** GET /v1/redis/flavors: machine sizes. */
  async listFlavors(): Promise<Flavor[]> {
    const action = "listing cache flavors";
    return this.http.read({ operation: "ListFlavors", method: "GET", path: "/v1/redis/flavors", action, idempotent: true }, flattenFlavors);
  }
}
