import pluralize from 'pluralize';
import vocabulary from '../reference/vocabulary.json' with { type: 'json' };
import { foldKey } from './fold.js';
import { remembered } from './memo.js';

/**
 * The one text analysis of titles, skills and industries, run on documents before indexing and on
 * what people type before querying (docs/search-semantics.md, "How text is read"). Elasticsearch's
 * server core has no stemmer or synonym filter, so this is where words meet: accents and case
 * folded, punctuation and hyphens split off (keeping C#, C++ and .NET), plurals made singular
 * (`pluralize`, docs/decisions/singular-forms.md) and one word's several spellings made one.
 */

const NOT_PLURAL = new Set(vocabulary.not_plural.words);

/** Tokens that punctuation would otherwise destroy, named before the split. */
const SYMBOL_WORDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/(^|[^a-z0-9])c#/g, '$1 csharp '],
  [/(^|[^a-z0-9])f#/g, '$1 fsharp '],
  [/(^|[^a-z0-9])c\+\+/g, '$1 cpp '],
  [/\.net(?![a-z0-9])/g, ' dotnet '],
];

/**
 * Plurals to singular. Short words ("ms", "aws", "ios", "ops"), words with digits, JavaScript
 * libraries ("nodejs") and the words the vocabulary lists are left alone: they are not plurals.
 */
function singular(token: string): string {
  if (token.length < 4 || !token.endsWith('s') || token.endsWith('js') || NOT_PLURAL.has(token)) return token;
  return /\d/.test(token) ? token : pluralize.singular(token);
}

function words(text: string): string[] {
  let folded = foldKey(text);
  for (const [pattern, replacement] of SYMBOL_WORDS) folded = folded.replace(pattern, replacement);
  return folded
    .split(/[^a-z0-9]+/)
    .filter((token) => token !== '')
    .map(singular);
}

/** Spellings by their first word: each typed form's words and the words it becomes. */
const SPELLINGS = new Map<string, Array<{ typed: string[]; as: string[] }>>();
for (const entry of vocabulary.spellings.entries) {
  for (const typed of entry.typed) {
    const form = words(typed);
    const first = form[0] as string;
    const list = SPELLINGS.get(first) ?? [];
    list.push({ typed: form, as: words(entry.as) });
    // Longest first, so that "node js" wins over "node".
    list.sort((a, b) => b.typed.length - a.typed.length);
    SPELLINGS.set(first, list);
  }
}

/**
 * Titles, skills and industries repeat across millions of documents and queries: their analyses are
 * remembered, up to a bound.
 */
const REMEMBERED_LIMIT = 10_000;

/** The words of `text` as indexed and as queried: folded, split, singular, one spelling per word. */
export const analyse: (text: string) => readonly string[] = remembered(analyseOnce, REMEMBERED_LIMIT);

function analyseOnce(text: string): string[] {
  const tokens = words(text);
  const out: string[] = [];
  for (let index = 0; index < tokens.length; ) {
    const spelling = SPELLINGS.get(tokens[index] as string)?.find((candidate) =>
      candidate.typed.every((token, offset) => tokens[index + offset] === token),
    );
    if (spelling) {
      out.push(...spelling.as);
      index += spelling.typed.length;
    } else {
      out.push(tokens[index] as string);
      index += 1;
    }
  }
  return out;
}

/**
 * The key a skill or industry is matched on: its words run together, without "and", so that
 * "Power BI" / "powerbi", "CI/CD" / "cicd", "Media & Entertainment" / "media and entertainment" and
 * "REST APIs" / "rest api" meet, while "Java" and "JavaScript" or "SQL" and "PostgreSQL" stay apart.
 */
export const matchKey: (text: string) => string = remembered(
  (text) =>
    analyse(text)
      .filter((token) => token !== 'and')
      .join(''),
  REMEMBERED_LIMIT,
);

/** A title's words as `title_terms` holds them. */
const titleTerms = remembered((title) => analyse(title).join(' '), REMEMBERED_LIMIT);

/** The analysed fields of a lead: what its title, skills and industry are matched on. */
export interface LeadMatchFields {
  title_terms: string;
  skills_key: string[];
  industry_key: string;
}

/** Called wherever a lead document is built (the seed), so documents and queries read text alike. */
export function leadMatchFields(lead: {
  title: string;
  skills: readonly string[];
  industry: string;
}): LeadMatchFields {
  return {
    title_terms: titleTerms(lead.title),
    skills_key: [...new Set(lead.skills.map(matchKey))],
    industry_key: matchKey(lead.industry),
  };
}
