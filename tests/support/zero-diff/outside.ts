/**
 * Resources of the zero-diff suite made outside Pulumi, through the client (re-exported by
 * index.ts), for a stack to take over: adopted by the dynamic-class program, imported by the
 * native plugin's. Each type says how it is made, or why it is not, in its fixture (`outside`,
 * tests/resources/fixture.ts): nothing here names a type.
 */
import { resolveSettings, type Settings } from "../../../client/core";
import type { CloudProject } from "../../harness/engine";
import { fixtureOf, resourceTypes, type OutsideResource, type StackTargets } from "../../resources";
import type { CloudFixture, SecretValues, SpecResource } from "./spec";

export type { OutsideResource, StackTargets } from "../../resources";

export function sdkSettings(p: CloudProject): Settings {
  return resolveSettings(
    { localCloudUrl: p.cloud.url, projectId: p.projectId, authToken: p.token, credentialId: p.credentialId, credentialSecret: p.credentialSecret },
    () => undefined,
    {},
  );
}

/**
 * Makes resources outside Pulumi, through the client, as a console user or a script would (not
 * through the provider), each waited for until settled: every type's of one set, in the package's
 * order of types, the types made at once (none refers to another's).
 *
 * - `plain`: every input the cloud answers back (a bucket with an ACL and metadata, a cache cluster
 *   without a user, a query run, ...);
 * - `secret`: with inputs the cloud never answers back (write-only: a cache user's password, a data
 *   source's instance, user and password, an object's inline content, ...).
 */
export async function makeOutside(
  set: "plain" | "secret",
  p: CloudProject,
  fx: CloudFixture,
  s: SecretValues,
  tag: string,
  stack: StackTargets,
): Promise<OutsideResource[]> {
  const settings = sdkSettings(p);
  const name = (x: string) => `${set === "plain" ? "zo" : "zs"}-${x}`;
  const made = await Promise.all(
    resourceTypes().map(async (t) => {
      const outside = fixtureOf(t).outside;
      return "make" in outside ? outside.make({ set, settings, fx, s, tag, stack, name }) : [];
    }),
  );
  return made.flat();
}

/** The types whose fixture makes resources outside Pulumi, and of those the ones a dynamic-class program can adopt. */
export function outsideTypes(): { made: string[]; adoptable: string[] } {
  const made = resourceTypes().filter((t) => "make" in fixtureOf(t).outside);
  return { made, adoptable: made.filter((t) => (fixtureOf(t).outside as { notAdoptable?: string }).notAdoptable === undefined) };
}

/** The outside resources as a dynamic-class program declares them to adopt them (`adopt`), or as imported (not adoptable). */
export function adoptingSpec(outside: readonly OutsideResource[]): SpecResource[] {
  return outside.filter((o) => o.adopt !== undefined).map((o) => ({ name: o.name, type: o.type, properties: { ...o.properties, ...o.adopt } }));
}

/** `pulumi import --file` input for the outside resources. */
export function importFile(outside: readonly OutsideResource[]): { resources: { type: string; name: string; id: string }[] } {
  return { resources: outside.map((o) => ({ type: o.type, name: o.name, id: o.importId })) };
}
