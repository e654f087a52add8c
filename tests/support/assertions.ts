/** The rejection of a promise; fails the test when the promise resolves. */

export async function rejection(p: Promise<unknown>): Promise<Error & Record<string, any>> {
  try {
    await p;
  } catch (e) {
    return e as Error & Record<string, unknown>;
  }
  throw new Error("expected the operation to fail, but it succeeded");
}
