/**
 * The `lse` command: one sub-command per job. Errors a user can fix print a message and exit 2.
 */
import { CliError } from './cli-error.ts';
import { crawlCommand, crawlUsage } from './crawl-command.ts';
import { demoCommand, demoUsage } from './demo-command.ts';
import { demoWebCommand, demoWebUsage } from './demo-web-command.ts';
import { indexCommand, indexUsage, serveCommand, serveUsage } from './serve-command.ts';
import { estimateCommand, estimateUsage, ranksCommand, ranksUsage } from './estimate-command.ts';
import { experimentCommand, experimentUsage } from './experiment-command.ts';
import { importCommand, importUsage } from './import-command.ts';

interface Command {
  summary: string;
  usage: string;
  run(argv: string[]): Promise<number>;
}

const commands: Record<string, Command> = {
  demo: {
    summary: 'the whole job on the built-in demo web: crawl, estimate, index, serve (npm start)',
    usage: demoUsage,
    run: demoCommand,
  },
  index: {
    summary: 'build the text index (and local PageRank) of a data directory',
    usage: indexUsage,
    run: indexCommand,
  },
  serve: {
    summary: 'serve the search page and API of a data directory',
    usage: serveUsage,
    run: serveCommand,
  },
  crawl: {
    summary: 'crawl the local domain into a data directory (resumable)',
    usage: crawlUsage,
    run: crawlCommand,
  },
  import: {
    summary: 'import pages pushed by the site (JSON Lines: url, title, body, …) and update the index',
    usage: importUsage,
    run: importCommand,
  },
  'demo-web': {
    summary: 'serve the built-in synthetic multi-host web on 127.0.0.1',
    usage: demoWebUsage,
    run: demoWebCommand,
  },
  estimate: {
    summary: 'run an estimation round (FindGlobalPR) on a crawled data directory',
    usage: estimateUsage,
    run: estimateCommand,
  },
  ranks: {
    summary: 'print each local page with its local PageRank and estimated global PageRank',
    usage: ranksUsage,
    run: ranksCommand,
  },
  experiment: {
    summary: 'estimate the global PageRank of a domain of a known web graph and measure the error',
    usage: experimentUsage,
    run: experimentCommand,
  },
};

export function overview(): string {
  const width = Math.max(...Object.keys(commands).map((c) => c.length));
  return [
    'lse — a localized search engine with global PageRank estimation',
    '',
    'usage: lse <command> [flags]',
    '',
    'commands:',
    ...Object.entries(commands).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`),
    `  ${'help'.padEnd(width)}  show this overview, or "lse help <command>" for a command's flags`,
    '',
  ].join('\n');
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    const topic = rest[0];
    if (topic && commands[topic]) process.stdout.write(`${commands[topic].usage}\n`);
    else process.stdout.write(overview());
    return 0;
  }
  const command = commands[name];
  if (!command) {
    process.stderr.write(`lse: unknown command "${name}"\n\n${overview()}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`${command.usage}\n`);
    return 0;
  }
  try {
    return await command.run(rest);
  } catch (error) {
    if (error instanceof CliError) {
      process.stderr.write(`${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
}
