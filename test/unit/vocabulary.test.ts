import { describe, expect, it } from 'vitest';
import { AGENCY_INDUSTRY, INDUSTRIES } from '../../seed/catalogue/companies.js';
import { LEVEL_PREFIXES, ROLE_FAMILIES } from '../../seed/catalogue/roles.js';
import { analyse } from '../../src/domain/analysis.js';
import { MAX_MEANINGS, SKILL_ALIASES, TITLE_TERMS } from '../../src/reference/vocabulary.js';
import vocabulary from '../../src/reference/vocabulary.json' with { type: 'json' };

/** The reference data: every title, skill and industry the generated documents use. */
const titles = ROLE_FAMILIES.flatMap((family) => [
  ...family.executiveTitles,
  ...family.cores.flatMap((core) => [
    core.title,
    `${core.title} Intern`,
    ...Object.values(LEVEL_PREFIXES)
      .flat()
      .concat(family.leadPrefixes ?? [])
      .map((prefix) => `${prefix} ${core.title}`),
  ]),
]).map((title) => ` ${analyse(title).join(' ')} `);
const skills = new Set(
  ROLE_FAMILIES.flatMap((family) => [...family.skillPool, ...family.cores.flatMap((core) => core.skills)]),
);
const industries = new Set([...INDUSTRIES, AGENCY_INDUSTRY].map((industry) => industry.name));

/** Titles the vocabulary knows that the demo data happens not to have. */
const TITLES_BEYOND_THE_DATA = new Set(['Database Administrator']);

describe('the vocabulary', () => {
  it('reads title terms as phrases that occur in the titles of the reference data', () => {
    const { entries, role_nouns } = vocabulary.titles;
    const meanings = [...entries, ...role_nouns.alone]
      .flatMap((entry) => entry.means)
      .concat(role_nouns.with_specialty);
    for (const meaning of meanings.filter((phrase) => !TITLES_BEYOND_THE_DATA.has(phrase))) {
      const phrase = ` ${analyse(meaning).join(' ')} `;
      expect(
        titles.some((title) => title.includes(phrase)),
        meaning,
      ).toBe(true);
    }
  });

  it('maps skill aliases to skills of the reference data, named exactly', () => {
    for (const name of vocabulary.skills.entries.flatMap((entry) => entry.means)) {
      expect(skills.has(name), name).toBe(true);
    }
  });

  it('maps industry aliases to industries of the reference data, named exactly', () => {
    for (const name of vocabulary.industries.entries.flatMap((entry) => entry.means)) {
      expect(industries.has(name), name).toBe(true);
    }
  });

  it('writes the spellings already folded, one word per form', () => {
    for (const entry of vocabulary.spellings.entries) {
      expect(analyse(entry.as).join(' ')).toBe(entry.as);
    }
  });

  it('keeps every reading small', () => {
    const sections = [vocabulary.titles.entries, vocabulary.skills.entries, vocabulary.industries.entries];
    for (const entry of sections.flat()) expect(entry.means.length).toBeLessThanOrEqual(MAX_MEANINGS);
    for (const term of TITLE_TERMS.values())
      expect(term.phrases.length).toBeLessThanOrEqual(MAX_MEANINGS + 1);
  });

  it('reads the abbreviations the issue names', () => {
    for (const typed of [
      'ml',
      'ai',
      'sre',
      'swe',
      'sdet',
      'ux ui',
      'bi',
      'nlp',
      'cto',
      'cio',
      'ciso',
      'cpo',
      'dba',
    ]) {
      expect(TITLE_TERMS.has(typed), typed).toBe(true);
    }
    for (const typed of ['k8s', 'postgres', 'js', 'ts', 'sklearn', 'googlecloud']) {
      expect(SKILL_ALIASES.has(typed), typed).toBe(true);
    }
  });
});
