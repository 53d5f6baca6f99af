/**
 * The market-insights view (an MCP App): shows the `get_market_insights` result the host hands
 * over, as a chart and a table, and calls the tool again through the host when the person changes
 * a control. The host speaks to it over postMessage (the ext-apps `App` class).
 */
import './no-eval.js';
import { App, type McpUiHostContext } from '@modelcontextprotocol/ext-apps';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Filler,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import {
  CURRENCIES,
  type Currency,
  INSIGHT_BREAKDOWN_BY,
  INSIGHT_GROUP_BY,
  INSIGHT_METRICS,
  type InsightBreakdownBy,
  type InsightGroupBy,
} from '../../src/domain/enums.js';
import { chartConfig, chartHeight } from './chart.js';
import {
  createFormats,
  DIMENSION_LABELS,
  type InsightMetric,
  type Insights,
  type InsightsArguments,
  METRIC_LABELS,
  type Outcome,
  quotaOf,
  type Regrouping,
  readToolResult,
  regroupArguments,
  summaryOf,
  type Table,
  TOOL_NAME,
  tableOf,
  titleOf,
} from './model.js';
import { applyHostLook, resolvePalette } from './theme.js';

// Only what these charts draw, so that the document stays small.
Chart.register(
  BarController,
  BarElement,
  LineController,
  LineElement,
  PointElement,
  CategoryScale,
  LinearScale,
  Filler,
  Legend,
  Tooltip,
);

function find<T extends Element>(selector: string): T {
  const found = document.querySelector<T>(selector);
  if (found === null) throw new Error(`The page has no ${selector}`);
  return found;
}

const page = {
  title: find<HTMLElement>('#title'),
  summary: find<HTMLElement>('#summary'),
  status: find<HTMLElement>('#status'),
  chartFrame: find<HTMLElement>('.chart-frame'),
  chartArea: find<HTMLElement>('#chart-area'),
  canvas: find<HTMLCanvasElement>('#chart'),
  notes: find<HTMLElement>('#notes'),
  tableFrame: find<HTMLElement>('.table-frame'),
  table: find<HTMLTableElement>('#table'),
  quota: find<HTMLElement>('#quota'),
  probe: find<HTMLElement>('#colour-probe'),
};

const controls = {
  group_by: find<HTMLSelectElement>('select[name="group_by"]'),
  breakdown_by: find<HTMLSelectElement>('select[name="breakdown_by"]'),
  metric: find<HTMLSelectElement>('select[name="metric"]'),
  currency: find<HTMLSelectElement>('select[name="currency"]'),
};

function fillOptions(select: HTMLSelectElement, options: readonly (readonly [string, string])[]): void {
  select.replaceChildren(...options.map(([value, label]) => new Option(label, value)));
}
fillOptions(
  controls.group_by,
  INSIGHT_GROUP_BY.map((key) => [key, DIMENSION_LABELS[key]]),
);
fillOptions(controls.breakdown_by, [
  ['', 'Nothing'],
  ...INSIGHT_BREAKDOWN_BY.map((key) => [key, DIMENSION_LABELS[key]] as const),
]);
fillOptions(
  controls.metric,
  INSIGHT_METRICS.map((key) => [key, METRIC_LABELS[key]]),
);
fillOptions(
  controls.currency,
  CURRENCIES.map((code) => [code, code]),
);

let formats = createFormats();
/** The arguments of the call whose result is shown: a regroup changes only what its control sets. */
let shownArguments: InsightsArguments | undefined;
let shown: Insights | undefined;
let chart: { destroy(): void } | undefined;
let busy = false;

const app = new App({ name: 'hiring-leads market insights', version: '1.0.0' }, {}, { autoResize: true });

// The host sends the arguments just before the result; the server has already checked them.
app.ontoolinput = ({ arguments: args }) => {
  shownArguments = args as InsightsArguments | undefined;
};
app.ontoolresult = (result) => show(readToolResult(result, formats));
app.onhostcontextchanged = (changed) => applyHostContext(changed);

// Each control's values come from the lists above, so reading them back as those types is sound.
controls.group_by.addEventListener('change', () => {
  void regroup({ group_by: controls.group_by.value as InsightGroupBy });
});
controls.breakdown_by.addEventListener('change', () => {
  void regroup({ breakdown_by: (controls.breakdown_by.value || null) as InsightBreakdownBy | null });
});
controls.metric.addEventListener('change', () => {
  void regroup({ metric: controls.metric.value as InsightMetric });
});
controls.currency.addEventListener('change', () => {
  void regroup({ currency: controls.currency.value as Currency });
});

app.connect().then(
  () => applyHostContext(app.getHostContext() ?? {}),
  (error: unknown) => setStatus(`The view could not connect to its host: ${messageOf(error)}`, true),
);

/** The whole context once connected, then each change (the host sends only what changed). */
function applyHostContext(context: McpUiHostContext): void {
  applyHostLook(context);
  if (context.locale !== undefined || context.timeZone !== undefined) {
    const current = app.getHostContext();
    formats = createFormats(current?.locale, current?.timeZone);
  }
  // The canvas keeps the colours it was drawn with: a new theme means drawing again.
  render();
}

async function regroup(change: Regrouping): Promise<void> {
  if (shownArguments === undefined) return;
  const next = regroupArguments(shownArguments, change);
  setBusy(true);
  setStatus('Loading…');
  try {
    const outcome = readToolResult(
      await app.callServerTool({ name: TOOL_NAME, arguments: { ...next } }),
      formats,
    );
    if ('insights' in outcome) shownArguments = next;
    show(outcome);
  } catch (error) {
    setStatus(`The host could not run the query: ${messageOf(error)}`, true);
  } finally {
    setBusy(false);
  }
}

/** A refused call leaves the last figures in place, with the reason above them. */
function show(outcome: Outcome): void {
  if ('problem' in outcome) {
    setStatus(outcome.problem, true);
    syncControls();
    return;
  }
  shown = outcome.insights;
  setStatus(shown.rows.length === 0 ? 'No open roles match these filters.' : '');
  render();
}

function render(): void {
  syncControls();
  if (shown === undefined) return;
  page.title.textContent = titleOf(shown);
  page.summary.textContent = summaryOf(shown, formats);
  page.quota.textContent = quotaOf(shown, formats);
  page.notes.replaceChildren(
    ...shown.notes.map((note) => {
      const item = document.createElement('li');
      item.textContent = note;
      return item;
    }),
  );
  page.notes.hidden = shown.notes.length === 0;
  renderTable(tableOf(shown, formats));
  drawChart(shown);
}

function drawChart(insights: Insights): void {
  chart?.destroy();
  chart = undefined;
  page.chartFrame.hidden = insights.rows.length === 0;
  if (page.chartFrame.hidden) return;
  page.chartArea.style.height = `${chartHeight(insights)}px`;
  page.canvas.setAttribute('aria-label', `${titleOf(insights)}. The table below holds the same figures.`);
  chart = new Chart(page.canvas, chartConfig(insights, resolvePalette(page.probe), formats));
}

function renderTable(table: Table): void {
  page.tableFrame.hidden = table.body.length === 0;
  const [caption, head, body, foot] = [
    page.table.caption,
    page.table.tHead,
    page.table.tBodies[0],
    page.table.tFoot,
  ];
  if (caption) caption.textContent = table.caption;
  const row = (cells: readonly string[], kind: 'col' | 'row') => tableRow(cells, kind, table.textColumns);
  head?.replaceChildren(row(table.head, 'col'));
  body?.replaceChildren(...table.body.map((cells) => row(cells, 'row')));
  foot?.replaceChildren(...(table.foot ? [row(table.foot, 'row')] : []));
}

/** A header row (`col`) is all header cells; a data row (`row`) is headed by its first cell. */
function tableRow(
  cells: readonly string[],
  kind: 'col' | 'row',
  textColumns: readonly number[],
): HTMLTableRowElement {
  const row = document.createElement('tr');
  cells.forEach((text, index) => {
    const header = kind === 'col' || index === 0;
    const cell = document.createElement(header ? 'th' : 'td');
    if (header) cell.scope = kind;
    cell.classList.toggle('text', textColumns.includes(index));
    cell.textContent = text;
    row.append(cell);
  });
  return row;
}

/** The controls show the figures on screen, and work once the call's arguments are known. */
function syncControls(): void {
  const ready = !busy && shown !== undefined && shownArguments !== undefined;
  for (const select of Object.values(controls)) select.disabled = !ready;
  if (shown === undefined) return;
  controls.group_by.value = shown.group_by;
  controls.breakdown_by.value = shown.breakdown_by ?? '';
  controls.metric.value = shown.metric;
  controls.currency.value = shown.currency;
  // Currency changes only salary figures, and a breakdown cannot repeat the grouping.
  controls.currency.disabled ||= shown.metric !== 'salary';
  for (const option of controls.breakdown_by.options) option.disabled = option.value === shown.group_by;
}

function setBusy(value: boolean): void {
  busy = value;
  syncControls();
}

function setStatus(text: string, problem = false): void {
  page.status.textContent = text;
  page.status.classList.toggle('problem', problem);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
