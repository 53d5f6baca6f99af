/** The `instructions` of `initialize`: a short guide for the assistant that uses these tools. */
export const SERVER_INSTRUCTIONS = `Hiring-leads: search open tech roles (leads), the companies hiring for them, company news that predicts hiring (signals), and market statistics.

Start with get_account_usage: it shows the plan, the subscription status, the remaining daily quotas, the enrichment credits and the scopes of this connection. Every tool except get_account_usage and get_filter_options needs a paid plan with an active or trialing subscription.

Filter values such as experience_level, work_type, employment_type, company_size, signal categories and countries come from fixed lists: call get_filter_options instead of guessing them.

Costs: search_leads charges one lead explore per lead returned and get_lead one; search_companies one company explore per company returned and get_company one; get_market_insights one insight query per call. search_signals, get_account_usage and get_filter_options are free. enrich_lead is the only tool that spends a monthly credit (1 per lead not yet unlocked; free when already unlocked). Every metered result carries "quota"; use small page sizes when quota is short.

Pagination: search results carry next_cursor. To get the next page, call the same tool with exactly the same filters and cursor set to next_cursor; page_size may change. Only the first 1,000 results of a search can be paged; narrow the filters to see more.

Ids (lead_id, company_id) are opaque: use them exactly as returned. Errors come back as {"error": {"code", "message", "details"}}; the message says what to change or when to retry.`;
