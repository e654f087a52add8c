/**
 * The functions over a type's listing (`Listing` in resource.ts): the checked query, one page, every
 * page, and the name-prefix filter most types share.
 */
import type { AnyDefinition, Context, Listed, ListPage, ListRequest, Listing } from "./resource";

/** The listing of `def`, with `query` checked against it; throws for a type without one and for a query naming an input it does not filter by. */
export function listingFor(def: AnyDefinition, query: Readonly<Record<string, string>>): Listing {
  const list = def.list;
  if (list === undefined) throw new Error(`${def.token} cannot be listed${def.unlisted ? `: ${def.unlisted}` : ""}`);
  const takes = Object.keys(list.inputs ?? {});
  const unknown = Object.keys(query).filter((k) => !takes.includes(k));
  if (unknown.length > 0) throw new Error(`${def.token} cannot be listed by ${unknown.join(", ")}: it takes ${takes.join(", ") || "no filter"}`);
  if (list.parent && !query[list.parent.input])
    throw new Error(`listing ${list.kind[1]}: give ${list.parent.input} (the ${list.parent.token.split(":")[2]} they are in)`);
  return list;
}

/** One page of what `def.list` finds for `request` (the native plugin's List serves each page from here). */
export function listPage(def: AnyDefinition, ctx: Context, request: ListRequest): Promise<ListPage> {
  return listingFor(def, request.query ?? {}).page(ctx, request);
}

/** Only the items whose name starts with the query's `name`, when it gives one (the `name` filter of most types). */
export function byNamePrefix(items: readonly Listed[], query: ListRequest["query"]): Listed[] {
  const prefix = query?.name;
  return prefix ? items.filter((i) => i.name.startsWith(prefix)) : [...items];
}

/** The `name` filter's description in listInputs. */
export const NAME_PREFIX_FILTER = "Only those whose name starts with this.";

/**
 * The listing of a type whose service lists all its records at once, without pages: `all` reads
 * them (id and name), and the `name` filter keeps those whose name starts with it.
 */
export function listedByName(kind: readonly [string, string], all: (ctx: Context) => Promise<Listed[]>): Listing {
  return { kind, inputs: { name: NAME_PREFIX_FILTER }, page: async (ctx, request) => ({ items: byNamePrefix(await all(ctx), request.query) }) };
}

/**
 * Every resource `def.list` finds for `query`, page after page. Throws for a type without a list
 * and for a query naming an input the type does not filter by.
 */
export async function listAll(def: AnyDefinition, ctx: Context, query: Readonly<Record<string, string>> = {}): Promise<Listed[]> {
  const list = listingFor(def, query);
  const all: Listed[] = [];
  let continuation: string | undefined;
  do {
    const page = await list.page(ctx, { query, continuation });
    all.push(...page.items);
    // A continuation that does not move would never end.
    continuation = page.continuation !== continuation ? page.continuation : undefined;
  } while (continuation !== undefined);
  return all;
}
