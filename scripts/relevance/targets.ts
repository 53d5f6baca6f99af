import type { Summary } from './evaluate.js';

/** The relevance targets (docs/search-quality.md): checked by `npm run relevance` and its test. */
const TARGETS = { meanRecall: 0.95, meanPrecision: 0.95, zeroWithMatches: 0 } as const;

export function meetsTargets(summary: Summary): { ok: boolean; missed: string[] } {
  const missed: string[] = [];
  if (summary.meanRecall < TARGETS.meanRecall) {
    missed.push(`mean recall ${summary.meanRecall.toFixed(3)} < ${TARGETS.meanRecall}`);
  }
  if (summary.meanPrecision < TARGETS.meanPrecision) {
    missed.push(`mean precision ${summary.meanPrecision.toFixed(3)} < ${TARGETS.meanPrecision}`);
  }
  if (summary.zeroWithMatches > TARGETS.zeroWithMatches) {
    missed.push(`${summary.zeroWithMatches} queries with matches returned nothing`);
  }
  return { ok: missed.length === 0, missed };
}
