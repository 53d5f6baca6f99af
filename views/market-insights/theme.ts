/**
 * The host's look applied to the page: its light or dark theme, its CSS variables and fonts; and
 * those variables resolved to the colours the canvas needs.
 */
import {
  applyDocumentTheme,
  applyHostFonts,
  applyHostStyleVariables,
  type McpUiHostContext,
} from '@modelcontextprotocol/ext-apps';
import type { Palette } from './chart.js';

/** Applies what the host sent: the whole context at start, or only what changed afterwards. */
export function applyHostLook(context: McpUiHostContext): void {
  if (context.theme) applyDocumentTheme(context.theme);
  if (context.styles?.variables) applyHostStyleVariables(context.styles.variables);
  if (context.styles?.css?.fonts) applyHostFonts(context.styles.css.fonts);
}

/**
 * The palette as the page's styles resolve it now. The host's variables may hold `light-dark()`
 * pairs or refer to one another; a probe element styled with each one hands back plain colours.
 */
export function resolvePalette(probe: HTMLElement): Palette {
  const colour = (variable: string) => {
    probe.style.color = `var(${variable})`;
    return getComputedStyle(probe).color;
  };
  return {
    text: colour('--color-text-primary'),
    grid: colour('--color-border-secondary'),
    series: [1, 2, 3, 4, 5, 6].map((index) => colour(`--chart-series-${index}`)),
    band: colour('--chart-band'),
    fontFamily: getComputedStyle(document.body).fontFamily,
  };
}
