/**
 * Reads a value until it satisfies `done` or `ms` have passed, and returns the last value read.
 * For states that change in the background (a job finishing, a revocation made by another process).
 */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 5000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
