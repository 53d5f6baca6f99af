/** Latency percentiles and throughput of a timed run, over all calls and per tool. */

export interface Figures {
  calls: number;
  p50: number;
  p95: number;
  p99: number;
  perSecond: number;
}

export interface Timing {
  tool: string;
  ms: number;
}

function figuresOf(latencies: number[], seconds: number): Figures {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return {
    calls: sorted.length,
    p50: at(0.5),
    p95: at(0.95),
    p99: at(0.99),
    perSecond: sorted.length / seconds,
  };
}

/** Figures over every call, then per tool by name (a tool's calls/s is its share of the same run). */
export function summarise(timings: Timing[], seconds: number) {
  const byTool = new Map<string, number[]>();
  for (const { tool, ms } of timings) {
    const latencies = byTool.get(tool) ?? [];
    latencies.push(ms);
    byTool.set(tool, latencies);
  }
  return {
    all: figuresOf(
      timings.map((timing) => timing.ms),
      seconds,
    ),
    tools: Object.fromEntries(
      [...byTool]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([tool, latencies]) => [tool, figuresOf(latencies, seconds)]),
    ),
  };
}

export type Summary = ReturnType<typeof summarise>;

/** How much slower (or, for throughput, how much of) the `/mcp` path is than Elasticsearch alone. */
export interface Ratios {
  p50: number;
  p99: number;
  throughput: number;
}

export function ratios(mcp: Figures, direct: Figures): Ratios {
  return {
    p50: mcp.p50 / direct.p50,
    p99: mcp.p99 / direct.p99,
    throughput: mcp.perSecond / direct.perSecond,
  };
}
