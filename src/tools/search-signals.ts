import { SIGNAL_POLARITIES } from '../domain/enums.js';
import { searchSignalsInput } from '../schemas/inputs.js';
import { searchSignalsOutput } from '../schemas/outputs.js';
import { type SignalSource, toSignal } from '../search/dto.js';
import { searchWithFallback } from '../search/fallback.js';
import { finishPage, planPage } from '../search/paging.js';
import { buildSignalSearch, readSignalPage } from '../search/signal-query.js';
import { defineTool, READ_ONLY_TOOL } from './define-tool.js';

export const searchSignals = defineTool({
  name: 'search_signals',
  title: 'Search company news that predicts hiring',
  description: [
    `Searches company news items ("signals") that tend to precede hiring or firing, newest first: funding rounds, grants, investor funds, new locations, acquisitions, C-level changes, layoffs, technology changes, outsourcing. Each has a category, a polarity (${SIGNAL_POLARITIES.join(', ')}), title, summary, source url, country and announcement date, and the company (pass its id to get_company or search_leads).`,
    'Not metered. Allowed countries, categories and polarities come from get_filter_options. company_name is read with close spellings only when nothing matches as typed and no company name contains it, and `notes` say so.',
    'Paging: pass next_cursor back as cursor with the same filters; only the first 1,000 signals can be paged.',
  ].join(' '),
  inputSchema: searchSignalsInput,
  outputSchema: searchSignalsOutput,
  annotations: READ_ONLY_TOOL,
  scope: 'signals:read',
  access: 'paid',
  cost: null,
  async handler(args, { now, services }) {
    const search = { secret: services.config.SERVER_SECRET, tool: 'search_signals', args };
    const plan = planPage(search);
    const { response, notes } = await searchWithFallback(
      buildSignalSearch(args, now, plan.position, plan.size),
      (body) => services.searchIndex.search<SignalSource>('signals', body),
      (found) => found.hits.hits.length > 0,
      (query) => services.searchIndex.matchesAny('companies', query),
    );
    const page = readSignalPage(response, plan.size);
    const outcome = finishPage(search, plan, {
      returned: page.signals.length,
      moreExist: page.moreExist,
      lastSort: page.lastSort,
    });
    return {
      returned: page.signals.length,
      signals: page.signals.map(toSignal),
      next_cursor: outcome.next_cursor,
      notes: [...notes, ...outcome.notes],
    };
  },
});
