import { noArgumentsInput } from '../schemas/inputs.js';
import { filterOptionsOutput } from '../schemas/outputs.js';
import {
  buildTopIndustriesQuery,
  filterOptions,
  readTopIndustries,
  type TopIndustriesResponse,
} from '../search/filter-options.js';
import { defineTool, READ_ONLY_TOOL } from './define-tool.js';

export const getFilterOptions = defineTool({
  name: 'get_filter_options',
  title: 'Valid filter values',
  description: [
    'Returns every value the other tools accept for their list-valued filters: experience levels, work types, employment types, company size bands (value to label), salary currencies, signal categories, polarities and countries (code to name), the group_by and breakdown_by options of get_market_insights, the most common industries in the data with their open-role counts, and what the free-text filters (title, skills, industry, company names) understand.',
    'Not metered, needs no scope and answers on every plan. Call it before filtering when unsure of a value.',
  ].join(' '),
  inputSchema: noArgumentsInput,
  outputSchema: filterOptionsOutput,
  annotations: READ_ONLY_TOOL,
  scope: null,
  access: 'always',
  cost: null,
  async handler(_args, { services }) {
    const response = await services.searchIndex.aggregate<TopIndustriesResponse>(
      'leads',
      buildTopIndustriesQuery(),
    );
    return filterOptions(readTopIndustries(response));
  },
});
