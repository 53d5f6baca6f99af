/** One line of Prometheus's text format: a metric name, its labels and its value. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** A scrape of a metrics listener: its samples, in any order. */
export class Scrape {
  constructor(readonly samples: readonly Sample[]) {}

  /** The sum of the samples named `name` whose labels include `labels` (0 when there is none). */
  value(name: string, labels: Record<string, string> = {}): number {
    return this.matching(name, labels).reduce((sum, sample) => sum + sample.value, 0);
  }

  /** The samples named `name` whose labels include `labels`. */
  matching(name: string, labels: Record<string, string> = {}): Sample[] {
    return this.samples.filter(
      (sample) =>
        sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
    );
  }

  /** Every value label `label` takes in the samples named `name`. */
  labelValues(name: string, label: string): string[] {
    return [...new Set(this.matching(name).flatMap((sample) => sample.labels[label] ?? []))];
  }
}

/** GETs `url` (a `/metrics`) and parses the answer, which must be Prometheus's text format. */
export async function scrape(url: string): Promise<Scrape> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  const type = response.headers.get('content-type') ?? '';
  if (!type.startsWith('text/plain')) throw new Error(`${url} answered ${type}, not the text format`);
  return new Scrape(parseTextFormat(await response.text()));
}

const SAMPLE_LINE = /^([A-Za-z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?$/;
const LABEL_PAIR = /([A-Za-z_]\w*)="((?:[^"\\]|\\.)*)"/g;

/** Prometheus's text exposition format: comment lines skipped, label values unescaped. */
function parseTextFormat(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => {
      const parts = SAMPLE_LINE.exec(line);
      if (parts === null) throw new Error(`not a sample line: ${line}`);
      const [, name = '', labelText = '', value = ''] = parts;
      const labels = Object.fromEntries(
        [...labelText.matchAll(LABEL_PAIR)].map(([, key = '', raw = '']) => [
          key,
          raw.replace(/\\(.)/g, (_escape, character: string) => (character === 'n' ? '\n' : character)),
        ]),
      );
      return { name, labels, value: Number(value) };
    });
}
