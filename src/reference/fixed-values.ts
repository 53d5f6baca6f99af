import {
  COMPANY_SIZE_BANDS,
  CURRENCIES,
  EMPLOYMENT_TYPES,
  EXPERIENCE_LEVELS,
  INSIGHT_GROUP_BY,
  INSIGHT_METRICS,
  SIGNAL_CATEGORIES,
  SIGNAL_COUNTRIES,
  SIGNAL_POLARITIES,
  WORK_TYPES,
} from '../domain/enums.js';
import { resolvePlace } from './gazetteer.js';
import { regionNamed, workArrangementIn } from './regions.js';
import {
  COMPANY_SIZE_NAMES,
  CURRENCY_NAMES,
  EMPLOYMENT_TYPE_NAMES,
  EXPERIENCE_LEVEL_NAMES,
  fixedValueKey,
  INSIGHT_DIMENSION_NAMES,
  INSIGHT_METRIC_NAMES,
  SIGNAL_CATEGORY_NAMES,
  SIGNAL_POLARITY_NAMES,
} from './vocabulary.js';

/** A name and the singulars it may be the plural of: "skills", "countries" for "skill", "country". */
export function withSingulars(name: string): string[] {
  return [name, name.replace(/s$/, ''), name.replace(/ies$/, 'y')];
}

/**
 * The values of a fixed list (one of the tools' enums) that a value sent outside it means, which
 * the error refusing it names, or undefined when it means none of them (docs/search-semantics.md,
 * "Fixed values"): the value written another way ("on site" for "On-site", "skills" for "skill"),
 * or one of its other names. Signals' countries ("DACH") and the insight dimensions ("location":
 * city or country) can mean several; only those in `allowed` are named.
 */
export function fixedValuesMeant(allowed: readonly string[], typed: string): readonly string[] | undefined {
  const forms = withSingulars(fixedValueKey(typed));
  const written = allowed.find((value) => forms.includes(fixedValueKey(value)));
  if (written !== undefined) return [written];
  const meant = otherNamesOf(allowed, typed, forms)?.filter((value) => allowed.includes(value)) ?? [];
  return meant.length > 0 ? meant : undefined;
}

function otherNamesOf(
  allowed: readonly string[],
  typed: string,
  forms: readonly string[],
): readonly string[] | undefined {
  const named = (names: ReadonlyMap<string, readonly string[]>) =>
    forms.map((form) => names.get(form)).find((found) => found !== undefined);
  if (sameList(allowed, EXPERIENCE_LEVELS)) return named(EXPERIENCE_LEVEL_NAMES);
  if (sameList(allowed, EMPLOYMENT_TYPES)) return named(EMPLOYMENT_TYPE_NAMES);
  if (sameList(allowed, COMPANY_SIZE_BANDS)) return named(COMPANY_SIZE_NAMES);
  if (sameList(allowed, CURRENCIES)) return named(CURRENCY_NAMES);
  if (sameList(allowed, INSIGHT_METRICS)) return named(INSIGHT_METRIC_NAMES);
  // breakdown_by's list is part of group_by's: a dimension it lacks is then refused as meaning nothing.
  if (allowed.every((value) => INSIGHT_GROUP_BY.some((dimension) => dimension === value)))
    return named(INSIGHT_DIMENSION_NAMES);
  if (sameList(allowed, SIGNAL_CATEGORIES)) return named(SIGNAL_CATEGORY_NAMES);
  if (sameList(allowed, SIGNAL_POLARITIES)) return named(SIGNAL_POLARITY_NAMES);
  if (sameList(allowed, WORK_TYPES)) {
    const arrangement = workArrangementIn(typed);
    return arrangement?.rest === '' ? arrangement.workTypes : undefined;
  }
  if (sameList(allowed, SIGNAL_COUNTRIES)) return countriesNamed(typed, allowed);
  return undefined;
}

/** A country by name, code or alias ("UK", "Deutschland"), or the listed countries of a named group ("DACH"). */
function countriesNamed(typed: string, allowed: readonly string[]): readonly string[] | undefined {
  const place = resolvePlace(typed);
  if (place?.kind === 'country') return [place.countryCode];
  return regionNamed(typed)
    ?.keys.filter((key) => key.startsWith('country:'))
    .map((key) => key.slice('country:'.length).toUpperCase())
    .filter((code) => allowed.includes(code));
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index]);
}
