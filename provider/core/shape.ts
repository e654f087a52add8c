/**
 * A zod shape that documents which fields of a client record a lookup or an output shows, under the
 * record's own names: `pickShape` takes exactly those fields, so the shape is the one list of them.
 */
import { z } from "zod";

/** The id a record is known by, and its name, which the service may leave out. */
export function idAndName() {
  return { id: z.string(), name: z.string().optional() };
}

/** The fields of `record` that `shape` declares (absent ones as undefined). */
export function pickShape<S extends z.ZodRawShape>(shape: S, record: z.infer<z.ZodObject<S>>): z.infer<z.ZodObject<S>> {
  const r = record as Record<string, unknown>;
  return Object.fromEntries(Object.keys(shape).map((k) => [k, r[k]])) as z.infer<z.ZodObject<S>>;
}

/** `pickShape` of each record, with the shape built once for all of them. */
export function pickShapes<S extends z.ZodRawShape>(shape: S, records: readonly z.infer<z.ZodObject<S>>[]): z.infer<z.ZodObject<S>>[] {
  return records.map((r) => pickShape(shape, r));
}
