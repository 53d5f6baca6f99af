import { listInWords } from '../domain/words.js';
import { ACCESS_NEEDED, QUOTA_UNIT_NAMES } from '../plans.js';
import type { AnyToolDefinition } from '../tools/define-tool.js';
import { tools } from '../tools/registry.js';

const names = (matching: readonly AnyToolDefinition[]) =>
  listInWords(
    matching.map((tool) => tool.name),
    'and',
  );

/** What each tool costs, from the tools' own `cost` (docs/plans.md). */
function costs(): string {
  const metered = tools.flatMap(({ name, cost }) =>
    cost === null || cost.per === 'unlock'
      ? []
      : [
          `${name}, one ${QUOTA_UNIT_NAMES[cost.quota]} per ${cost.per === 'result' ? 'result returned' : 'call'}`,
        ],
  );
  const free = tools.filter((tool) => tool.cost === null);
  const unlocking = tools.filter((tool) => tool.cost?.per === 'unlock');
  return `Costs (daily quotas): ${metered.join('; ')}. ${names(free)} are free. ${names(unlocking)} spends one monthly credit and one ${QUOTA_UNIT_NAMES.enrichments} per lead not yet unlocked (nothing when already unlocked); no other tool spends credits. Every metered result carries "quota"; use small page sizes when quota is short.`;
}

/** The `instructions` of `initialize`: a short guide for the assistant that uses these tools. */
export const SERVER_INSTRUCTIONS = `Hiring-leads: search open tech roles (leads), the companies hiring for them, company news that predicts hiring (signals), and market statistics.

Start with get_account_usage: it shows the plan, the subscription status, the remaining daily quotas, the enrichment credits and the scopes of this connection. Every tool except ${names(tools.filter((tool) => tool.access === 'always'))} needs ${ACCESS_NEEDED}.

Filter values such as experience_level, work_type, employment_type, company_size, signal categories and countries come from fixed lists: call get_filter_options instead of guessing them.

${costs()}

Pagination: search results carry next_cursor. To get the next page, call the same tool with exactly the same filters and cursor set to next_cursor; page_size may change. Only the first 1,000 results of a search can be paged; narrow the filters to see more.

Ids (lead_id, company_id) are opaque: use them exactly as returned. Errors come back as {"error": {"code", "message", "details"}}; the message says what to change or when to retry.`;
