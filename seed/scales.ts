/**
 * The data sets the benchmark is run at (docs/performance.md, "At 20k, 1M and 10M"): what
 * `npm run seed -- --scale S` loads and what `npm run bench -- --scale S` reads, so the two
 * commands of a benchmark agree on the prefix.
 */
export const SCALES = {
  '20k': {
    leads: 20_000,
    companies: 2_000,
    signals: 5_000,
    prefix: 'bench20k',
    requests: 1080,
    warmup: 3000,
  },
  '1m': {
    leads: 1_000_000,
    companies: 100_000,
    signals: 300_000,
    prefix: 'bench1m',
    requests: 1080,
    warmup: 3000,
  },
  '10m': {
    leads: 10_000_000,
    companies: 500_000,
    signals: 1_000_000,
    prefix: 'bench10m',
    requests: 540,
    warmup: 1500,
  },
} as const;

export type Scale = keyof typeof SCALES;

export function isScale(name: string): name is Scale {
  return Object.hasOwn(SCALES, name);
}
