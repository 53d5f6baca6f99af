import { describe, expect, it } from 'vitest';
import { AGENCY_INDUSTRY, INDUSTRIES } from '../../seed/catalogue/companies.js';
import {
  LEADERSHIP_SOFT_SKILLS,
  LEVEL_PREFIXES,
  ROLE_FAMILIES,
  SOFT_SKILLS,
} from '../../seed/catalogue/roles.js';
import { analyse, matchKey } from '../../src/domain/analysis.js';
import {
  EXPERIENCE_LEVEL_WORDS,
  IGNORED_LEVEL_WORDS,
  MAX_MEANINGS,
  MAX_NAMES,
  SKILL_ALIASES,
  STOP_WORDS,
  TITLE_TERMS,
} from '../../src/reference/vocabulary.js';
import vocabulary from '../../src/reference/vocabulary.json' with { type: 'json' };
import { readLocation } from '../../src/search/location-filter.js';
import { isSkillName } from '../../src/search/text-filters.js';

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
const skillKeys = new Set([...skills].map(matchKey));
const industries = new Set([...INDUSTRIES, AGENCY_INDUSTRY].map((industry) => industry.name));

/** Titles the vocabulary knows that the demo data happens not to have. */
const TITLES_BEYOND_THE_DATA = new Set([
  'Database Administrator',
  'Technical Program Manager',
  'Business Analyst',
  'Business Systems Analyst',
]);

describe('the vocabulary', () => {
  it('reads title terms as phrases that occur in the titles of the reference data', () => {
    const { entries, role_nouns } = vocabulary.titles;
    const meanings = [...entries, ...role_nouns.alone, ...role_nouns.fields.entries]
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

  it('lists every skill of the reference data named like a place, and only those', () => {
    const listed = vocabulary.skills.named_like_places.names;
    for (const name of listed) expect(skills.has(name), name).toBe(true);
    for (const name of skills) {
      if (readLocation(name, false) !== undefined) expect(isSkillName(name), name).toBe(true);
    }
  });

  it('lists as soft skills the soft skills of the reference data, and no skill of it', () => {
    const soft = new Set(vocabulary.skills.soft.names.map(matchKey));
    for (const name of [...SOFT_SKILLS, ...LEADERSHIP_SOFT_SKILLS].filter(
      (name) => !skillKeys.has(matchKey(name)),
    ))
      expect(soft.has(matchKey(name)), name).toBe(true);
    for (const name of vocabulary.skills.soft.names) expect(skillKeys.has(matchKey(name)), name).toBe(false);
  });

  it('maps industry aliases to industries of the reference data, named exactly', () => {
    for (const name of vocabulary.industries.entries.flatMap((entry) => entry.means)) {
      expect(industries.has(name), name).toBe(true);
    }
  });

  it('leaves out of titles only other names of industries', () => {
    const typed = new Set(vocabulary.industries.entries.flatMap((entry) => entry.typed));
    for (const name of vocabulary.industries.not_in_titles.typed) expect(typed.has(name), name).toBe(true);
  });

  it('writes the spellings already folded, one word per form', () => {
    for (const entry of vocabulary.spellings.entries) {
      expect(analyse(entry.as).join(' ')).toBe(entry.as);
    }
  });

  it('keeps every reading small', () => {
    for (const entry of vocabulary.titles.entries)
      expect(entry.means.length).toBeLessThanOrEqual(MAX_MEANINGS);
    for (const term of TITLE_TERMS.values())
      expect(term.phrases.length).toBeLessThanOrEqual(MAX_MEANINGS + 1);
    // Other names of skills and industries are the keys of one `terms` clause.
    for (const entry of [...vocabulary.skills.entries, ...vocabulary.industries.entries])
      expect(entry.means.length).toBeLessThanOrEqual(MAX_NAMES);
  });

  it('leaves out level numbers no title has, and reads the level words titles do not spell out', () => {
    for (const word of IGNORED_LEVEL_WORDS) {
      expect(
        titles.some((title) => title.includes(` ${word} `)),
        word,
      ).toBe(false);
    }
    expect(EXPERIENCE_LEVEL_WORDS.get('mid level')).toEqual(['Mid']);
    expect(EXPERIENCE_LEVEL_WORDS.get('intermediate')).toEqual(['Mid']);
  });

  it("never drops a word of the data's titles as a stop word, but for the little words of English", () => {
    const titleWords = new Set(titles.flatMap((title) => analyse(title)));
    const english = new Set(['a', 'an', 'and', 'at', 'for', 'in', 'of', 'the', 'to', 'with', 'level']);
    for (const word of [...STOP_WORDS].filter((word) => !english.has(word)))
      expect(titleWords.has(word), word).toBe(false);
    for (const typed of ['jobs', 'roles', 'positions', 'openings', 'vacancies', 'opportunities', 'postings'])
      expect(STOP_WORDS.has(analyse(typed).join(' ')), typed).toBe(true);
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
