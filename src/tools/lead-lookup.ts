import type { LeadDoc } from '../domain/documents.js';
import { NotFound } from '../errors.js';
import type { Services } from '../services.js';

/** Fetches one lead by id, open or closed; `not_found` when no lead has that id. */
export async function fetchLead(services: Services, leadId: string): Promise<LeadDoc> {
  const lead = await services.searchIndex.get<LeadDoc>('leads', leadId);
  if (lead === undefined) throw new NotFound('lead_id', leadId, 'lead');
  return lead;
}
