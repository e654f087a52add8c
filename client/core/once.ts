/**
 * A factory that builds its value on the first call and returns the same value after. For zod
 * schemas: building one costs far more than using it (1,500 listing entries took 494 ms with a
 * schema each, 21 ms with one), and they are still built at run time, never at module load, so
 * nothing of them can be captured by a serialized provider.
 */
export function once<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}
