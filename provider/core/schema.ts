/** zod building blocks the services' inputs share. */
import { z } from "zod";

/** A string that must not be empty: an id, a name, a reference the service needs. */
export function nonEmpty() {
  return z.string().min(1, "must not be empty");
}
