import { readStackUrls } from '../scripts/stack/state.js';

/**
 * Points the server and the admin CLI at the stack `npm run stack:up` started, unless the
 * environment names the backends itself. Must run before `config()` is first read.
 */
export function useStackUrlsUnlessSet(env: NodeJS.ProcessEnv): void {
  const stack = readStackUrls();
  if (stack === undefined) return;
  env.ELASTICSEARCH_URL ||= stack.elasticsearchUrl;
  env.MONGODB_URI ||= stack.mongodbUri;
}
