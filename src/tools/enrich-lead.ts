import { unlockLead } from '../billing/enrich.js';
import { enrichLeadInput } from '../schemas/inputs.js';
import { enrichLeadOutput } from '../schemas/outputs.js';
import { leadPreviewNotes, toLeadPreview } from '../search/dto.js';
import { defineTool } from './define-tool.js';
import { fetchLead } from './lead-lookup.js';

export const enrichLead = defineTool({
  name: 'enrich_lead',
  title: 'Unlock a lead',
  description: [
    'Unlocks the full details of one lead: links to the original job postings, years of experience, industry, applicants, job and company tags, and company website, size and social links. Returns the lead preview with `details` filled in.',
    'Cost: 1 monthly enrichment credit and one of the 300 daily enrichments, charged once per lead; free when the account already unlocked it (here or in the app), which also works after the role closed. A role that has closed and was never unlocked cannot be unlocked.',
    'Needs the scope leads:enrich. get_lead shows enrichment_cost_credits first; get_account_usage shows the credits left.',
  ].join(' '),
  inputSchema: enrichLeadInput,
  outputSchema: enrichLeadOutput,
  // Repeating a call changes nothing more and charges nothing more: idempotent.
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  scope: 'leads:enrich',
  access: 'paid',
  cost: { quota: 'enrichments', per: 'unlock' },
  async handler(args, { account, limits, now, services, logger, signal }) {
    const lead = await fetchLead(services, args.lead_id);
    const outcome = await unlockLead(
      {
        accounts: services.accounts,
        unlocks: services.unlocks,
        quotaCounters: services.quotaCounters,
        metrics: services.metrics,
        logger,
      },
      { account, limits, lead, now, signal },
    );
    return {
      lead: toLeadPreview(lead, true),
      already_enriched: outcome.alreadyEnriched,
      charged_credits: outcome.chargedCredits,
      credits: outcome.credits,
      quota: outcome.enrichments,
      notes: leadPreviewNotes(lead, true),
    };
  },
});
