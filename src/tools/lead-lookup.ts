import type { LeadDoc } from '../domain/documents.js';
import { NotFound } from '../errors.js';
import type { Services } from '../services.js';
import { searchBackend } from '../stores/elasticsearch.js';

/** Fetches one lead by id, open or closed; `not_found` when no lead has that id. */
export async function fetchLead(services: Services, leadId: string): Promise<LeadDoc> {
  const response = await searchBackend(() =>
    services.elasticsearch.get<LeadDoc>({ index: services.indices.leads, id: leadId }, { ignore: [404] }),
  );
  if (!response.found || !response._source) throw new NotFound('lead_id', leadId, 'lead');
  return response._source;
}
