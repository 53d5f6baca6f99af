/**
 * What the benchmark sends: the standard mix of nine calls (the same arguments every time, as a
 * script polling the same searches would), or `varied`: the same nine kinds of call with their
 * arguments drawn from lists by the call's number, so that nearly every request differs and
 * Elasticsearch's request cache answers almost none of them (docs/performance.md).
 */

export interface Call {
  tool: 'search_leads' | 'search_companies' | 'get_market_insights';
  args: Record<string, unknown>;
}

/** A mix an analyst's script might send: broad and narrow searches, rankings and aggregations. */
export const MIX: readonly Call[] = [
  { tool: 'search_leads', args: { title: 'engineer', location: 'London' } },
  { tool: 'search_leads', args: { skills: ['Python', 'Go'], work_type: 'Remote', page_size: 25 } },
  { tool: 'search_leads', args: { location: 'Berlin', radius_km: 50, experience_level: 'Senior' } },
  {
    tool: 'search_leads',
    args: { min_annual_salary: 80000, salary_currency: 'EUR', posted_within_days: 30 },
  },
  { tool: 'search_companies', args: { skills: ['TypeScript'] } },
  { tool: 'search_companies', args: { location: 'GB', min_open_roles: 3 } },
  { tool: 'get_market_insights', args: { group_by: 'skill', filters: { location: 'DE' } } },
  { tool: 'get_market_insights', args: { group_by: 'posted_month', metric: 'salary', currency: 'USD' } },
  { tool: 'get_market_insights', args: { group_by: 'city', breakdown_by: 'experience_level', limit: 20 } },
];

const CITIES = [
  'London',
  'Manchester',
  'Edinburgh',
  'Dublin',
  'Berlin',
  'Munich',
  'Hamburg',
  'Paris',
  'Amsterdam',
  'Madrid',
  'Barcelona',
  'Warsaw',
  'Vienna',
  'Zurich',
  'Stockholm',
  'Lisbon',
  'Prague',
  'Milan',
];
const PLACES = [
  ...CITIES,
  'GB',
  'DE',
  'FR',
  'NL',
  'ES',
  'IE',
  'PL',
  'Bavaria',
  'Scotland',
  'England',
  'Italy',
  'Sweden',
];
const SKILLS = [
  'Python',
  'SQL',
  'AWS',
  'TypeScript',
  'Linux',
  'Azure',
  'Kubernetes',
  'Git',
  'Terraform',
  'React',
  'Java',
  'GraphQL',
  'Docker',
  'Spark',
  'Snowflake',
  'PyTorch',
  'PostgreSQL',
  'Kafka',
  'JavaScript',
  'GCP',
  'Go',
  'Rust',
  'C#',
  'Figma',
  'Vue.js',
];
const TITLES = [
  'engineer',
  'data engineer',
  'backend developer',
  'frontend engineer',
  'product manager',
  'data scientist',
  'devops',
  'ML engineer',
  'designer',
  'QA engineer',
  'CTO',
  'architect',
];
const LEVELS = ['Entry', 'Mid', 'Senior', 'Lead', 'Executive'];
const WORK_TYPES = ['Remote', 'Hybrid', 'On-site'];
const CURRENCIES = ['GBP', 'EUR', 'USD'];
const DAYS = [7, 14, 30, 60, 90, 180];
const GROUPS = ['city', 'country', 'experience_level', 'industry', 'work_type', 'title'];
const BREAKDOWNS = ['experience_level', 'work_type', 'employment_type', 'country'];

/** The `n`-th pick of a list for call `id`: a hash, so consecutive calls pick far apart. */
function pick<T>(list: readonly T[], id: number, n: number): T {
  const hash = Math.imul(id * 7 + n + 1, 2_654_435_761) >>> 0;
  return list[hash % list.length] as T;
}

/** Call `id` of the varied mix: the standard mix's kind of call at that place, other arguments. */
export function variedCall(id: number): Call {
  const slot = id % MIX.length;
  const at = <T>(list: readonly T[], n: number) => pick(list, id, n);
  switch (slot) {
    case 0:
      return { tool: 'search_leads', args: { title: at(TITLES, 1), location: at(PLACES, 2) } };
    case 1:
      return {
        tool: 'search_leads',
        args: { skills: [at(SKILLS, 1), at(SKILLS, 2)], work_type: at(WORK_TYPES, 3), page_size: 25 },
      };
    case 2:
      return {
        tool: 'search_leads',
        args: { location: at(CITIES, 1), radius_km: at([25, 50, 100], 2), experience_level: at(LEVELS, 3) },
      };
    case 3:
      return {
        tool: 'search_leads',
        args: {
          min_annual_salary: at([40_000, 60_000, 80_000, 100_000, 120_000], 1),
          salary_currency: at(CURRENCIES, 2),
          posted_within_days: at(DAYS, 3),
        },
      };
    case 4:
      return {
        tool: 'search_companies',
        args: { skills: [at(SKILLS, 1)], min_open_roles: at([1, 1, 2, 3], 2) },
      };
    case 5:
      return {
        tool: 'search_companies',
        args: { location: at(PLACES, 1), min_open_roles: at([1, 2, 3, 5], 2) },
      };
    case 6:
      return {
        tool: 'get_market_insights',
        args: { group_by: 'skill', filters: { location: at(PLACES, 1) } },
      };
    case 7:
      return {
        tool: 'get_market_insights',
        args: {
          group_by: at(['posted_month', 'posted_week'], 1),
          metric: 'salary',
          currency: at(CURRENCIES, 2),
          filters: { posted_within_days: at(DAYS, 3) },
        },
      };
    default: {
      const groupBy = at(GROUPS, 1);
      const breakdownBy = at(BREAKDOWNS, 2);
      return {
        tool: 'get_market_insights',
        args: {
          group_by: groupBy,
          ...(breakdownBy !== groupBy && { breakdown_by: breakdownBy }),
          limit: at([10, 20, 50], 3),
          filters: { experience_level: at(LEVELS, 4) },
        },
      };
    }
  }
}
