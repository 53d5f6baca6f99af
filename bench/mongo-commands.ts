/**
 * Counts the MongoDB commands our servers send, as each server's driver reports them: the
 * benchmark starts every server with a metrics listener, which turns on the driver's command
 * events, and reads `hiring_leads_mongodb_command_duration_seconds_count` by command before and
 * after a run. Nothing sits between the servers and MongoDB, so the count costs the `/mcp` path no
 * extra hop (the same events `test/integration/round-trips.test.ts` counts).
 */

/** The driver's own traffic rather than the calls': connection handshakes and liveness checks. */
const DRIVER_COMMANDS = new Set(['hello', 'isMaster', 'ismaster', 'ping', 'endSessions', 'saslStart']);

export const COUNTED =
  "commands the servers' MongoDB driver sent (its command events), handshakes and pings left out";

const COUNT_LINE = /^hiring_leads_mongodb_command_duration_seconds_count\{command="([^"]+)"\} (\d+)/;

/** Commands sent so far by the servers whose metrics are at `metricsUrls`, by command name. */
export async function mongoCommandsSent(metricsUrls: readonly string[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const url of metricsUrls) {
    const text = await (await fetch(url)).text();
    for (const line of text.split('\n')) {
      const [, command, count] = COUNT_LINE.exec(line) ?? [];
      if (command === undefined || DRIVER_COMMANDS.has(command)) continue;
      counts[command] = (counts[command] ?? 0) + Number(count);
    }
  }
  return counts;
}
