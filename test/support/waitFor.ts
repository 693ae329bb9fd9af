// Waiting on a condition instead of a fixed sleep: polls until it holds, or fails naming what it waited for. The one
// polling loop of the Node-side tests (MCP, unit, webview drivers).

export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    // The polling interval, not a wait for something to happen.
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
