/**
 * Terminal progress for long commands: a cli-progress bar on stderr when it is a terminal,
 * otherwise occasional plain lines (so logs and CI output stay readable).
 */
import cliProgress from 'cli-progress';

export interface Progress {
  /** `total`: a new total (a crawl's grows with its frontier). */
  update(done: number, status: string, total?: number): void;
  log(line: string): void;
  stop(): void;
}

export function createProgress(total: number, label: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      {
        stream,
        format: `${label} [{bar}] {percentage}% | {value}/{total} | {status}`,
        hideCursor: true,
        clearOnComplete: true,
        etaBuffer: 50,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0, { status: '' });
    return {
      update: (done, status, newTotal) => {
        if (newTotal !== undefined && newTotal !== total) bar.setTotal((total = newTotal));
        bar.update(done, { status });
      },
      log: (line) => {
        bar.stop();
        stream.write(`${line}\n`);
        bar.start(total, 0, { status: '' });
      },
      stop: () => bar.stop(),
    };
  }
  let lastPercent = -1;
  return {
    update: (done, status, newTotal) => {
      if (newTotal !== undefined) total = newTotal;
      const percent = total > 0 ? Math.floor((100 * done) / total / 10) * 10 : 100;
      if (percent !== lastPercent) {
        lastPercent = percent;
        stream.write(`${label}: ${percent}% ${status}\n`);
      }
    },
    log: (line) => stream.write(`${line}\n`),
    stop: () => {},
  };
}
