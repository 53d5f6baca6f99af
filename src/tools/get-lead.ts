import { getLeadInput } from '../schemas/inputs.js';
import { getLeadOutput } from '../schemas/outputs.js';
import { leadPreviewNotes, toLeadPreview } from '../search/dto.js';
import { defineTool, READ_ONLY_TOOL } from './define-tool.js';
import { fetchLead } from './lead-lookup.js';

export const getLead = defineTool({
  name: 'get_lead',
  title: 'Preview a lead',
  description: [
    'Returns the preview of one lead: every card field plus whether the role is still open, a summary, soft skills, about the company, the same role in other cities (with their lead ids), what enrich_lead would cost now (1 credit, or 0 if already unlocked), and `details` (job links, experience, applicants, tags, company links) when this account has unlocked the lead, else null.',
    'Works for closed roles too (notes say so). Cost: one lead explore. Use lead_id exactly as search_leads or get_company returned it.',
  ].join(' '),
  inputSchema: getLeadInput,
  outputSchema: getLeadOutput,
  annotations: READ_ONLY_TOOL,
  scope: 'leads:read',
  access: 'paid',
  cost: { quota: 'lead_explores', per: 'call' },
  async handler(args, { account, meter, services }) {
    // Charged first: with nothing left the call is refused before any lookup runs.
    const quota = await meter.require('lead_explores');
    const lead = await fetchLead(services, args.lead_id);
    const enriched = (await services.unlocks.unlockedAmong(account, [lead.id])).has(lead.id);
    return { lead: toLeadPreview(lead, enriched), quota, notes: leadPreviewNotes(lead, enriched) };
  },
});
