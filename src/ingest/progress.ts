/**
 * Progress of one bulk load on stderr: a single line redrawn in place on a terminal, or a
 * plain line every few seconds when stderr is a file or a pipe (CI logs stay readable). With no
 * total (a stream of unknown length) it shows the count and rate without a bar.
 */
export class Progress {
  private done = 0;
  private readonly startedAt = Date.now();
  private lastDrawnAt = 0;
  private lastDrawnCount = -1;
  private readonly interactive: boolean;

  constructor(
    private readonly label: string,
    private readonly total: number | undefined,
    private readonly stream: NodeJS.WriteStream = process.stderr,
  ) {
    this.interactive = Boolean(stream.isTTY);
  }

  advance(count: number): void {
    this.done += count;
    const now = Date.now();
    if (now - this.lastDrawnAt < (this.interactive ? 150 : 5000)) return;
    this.lastDrawnAt = now;
    this.draw();
  }

  finish(): void {
    if (this.lastDrawnCount !== this.done) this.draw();
    if (this.interactive) this.stream.write('\n');
  }

  private draw(): void {
    this.lastDrawnCount = this.done;
    const seconds = (Date.now() - this.startedAt) / 1000;
    const rate = seconds > 0 ? Math.round(this.done / seconds) : 0;
    if (this.total === undefined) {
      const line = `${this.label}: ${this.done.toLocaleString('en-GB')} records, ${rate.toLocaleString('en-GB')}/s`;
      this.stream.write(this.interactive ? `\r${line}\u001b[K` : `${line}\n`);
      return;
    }
    const share = this.total === 0 ? 1 : Math.min(1, this.done / this.total);
    const counts = `${this.done.toLocaleString('en-GB')}/${this.total.toLocaleString('en-GB')}`;
    const percent = `${Math.floor(share * 100)}%`.padStart(4);
    if (!this.interactive) {
      this.stream.write(
        `${this.label}: ${counts} (${percent.trim()}), ${rate.toLocaleString('en-GB')} docs/s\n`,
      );
      return;
    }
    const width = 30;
    const filled = Math.round(share * width);
    const bar = `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
    this.stream.write(
      `\r${this.label.padEnd(10)} ${bar} ${percent} ${counts} ${rate.toLocaleString('en-GB')} docs/s\u001b[K`,
    );
  }
}
