import { readFileSync } from 'node:fs';
import {
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  type Resource,
} from '@modelcontextprotocol/server';
import type { ToolView } from '../tools/define-tool.js';

/** The MIME type MCP Apps hosts look for: an HTML document to show in a sandboxed frame. */
const VIEW_MIME_TYPE = 'text/html;profile=mcp-app';

/**
 * `dist/views/` of the project: the same folder whether this file runs as src/mcp/*.ts (tsx, tests)
 * or as dist/mcp/*.js (the compiled server), both two levels under the project.
 */
const BUILT_VIEWS = new URL('../../dist/views/', import.meta.url);

/**
 * What hosts should know before showing a view. No outside origins at all: the document carries
 * its script and styles inline and fetches nothing, so hosts keep their strictest policy. A border
 * sets the chart off from the conversation around it.
 */
const VIEW_META = {
  ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true },
};

/** The views as MCP resources: listed, and read from memory. */
export interface ViewResources {
  listing: Resource[];
  /** The document, or JSON-RPC -32602 naming the URI (also as `data.uri`) when no view has it. */
  read(uri: string): ReadResourceResult;
}

/**
 * Reads every view's document once, at start. A missing document stops the server with what to
 * run, rather than failing later in a host that tries to show the view.
 */
export function loadViewResources(views: readonly ToolView[], folder: URL = BUILT_VIEWS): ViewResources {
  const documents = new Map<string, string>(views.map((view) => [view.uri, readDocument(view, folder)]));
  return {
    listing: views.map((view) => ({
      uri: view.uri,
      name: view.name,
      title: view.title,
      description: view.description,
      mimeType: VIEW_MIME_TYPE,
      _meta: VIEW_META,
    })),
    read(uri) {
      const text = documents.get(uri);
      if (text === undefined) {
        throw new ProtocolError(
          ProtocolErrorCode.InvalidParams,
          `Unknown resource "${uri}". Call resources/list for the resources this server offers.`,
          { uri },
        );
      }
      return { contents: [{ uri, mimeType: VIEW_MIME_TYPE, text, _meta: VIEW_META }] };
    },
  };
}

function readDocument(view: ToolView, folder: URL): string {
  const file = new URL(`${view.name}.html`, folder);
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    throw new Error(
      `The view ${view.uri} has no built document at ${file.pathname}. Build the views with \`npm run build:view\` (\`npm run build\` includes it).`,
    );
  }
}
