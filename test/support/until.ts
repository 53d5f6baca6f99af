/**
 * Polls `condition` every few milliseconds until it holds, for effects the server promises within a
 * bound (a revoked grant is refused on every process within a second): fails after `timeoutMs`.
 */
export async function until(
  condition: () => boolean | Promise<boolean>,
  options: { timeoutMs?: number; what?: string } = {},
): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? 3000);
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${options.what ?? 'a condition'}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
