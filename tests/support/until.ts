// Test helper: reads again every 50 ms until `done` says yes or the time is up, and answers the
// last reading (the caller's assertions then say what was wrong) — for work that happens in the
// background (the engines).
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
