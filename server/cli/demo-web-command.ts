/**
 * `lse demo-web`: serve the built-in synthetic web on loopback, so it can be crawled by hand.
 */
import { DEFAULT_DEMO_SEED, DEMO_SEED_URL, generateDemoWeb } from '../../crawler/demo-web/generate.ts';
import { startDemoWebServer } from '../../crawler/demo-web/server.ts';
import { numberFlag, parseFlags } from './flags.ts';

export const demoWebUsage = `lse demo-web [--port 8081] [--seed ${DEFAULT_DEMO_SEED}] [--pages N] [--no-latency]

  Serves the deterministic synthetic web (hundreds of hosts, one server answering for every
  host by its Host header) on 127.0.0.1 until interrupted, and prints the flags that point
  lse crawl at it.`;

export async function demoWebCommand(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, { port: { type: 'string' }, seed: { type: 'string' }, pages: { type: 'string' }, 'no-latency': { type: 'boolean' } }, 'demo-web');
  const web = generateDemoWeb({ seed: numberFlag(flags.seed, 'seed'), pages: numberFlag(flags.pages, 'pages') });
  const server = await startDemoWebServer(web, { port: numberFlag(flags.port, 'port') ?? 8081, latencyScale: flags['no-latency'] ? 0 : 1, logRequests: false });
  process.stdout.write(
    `demo web: ${web.hosts.length} hosts, ${web.resources.length} URLs, on ${server.url}\n` +
      `crawl it with:\n  lse crawl --data data/demo --seed ${DEMO_SEED_URL} --resolve '*:80:127.0.0.1:${server.port}' --allow-private-networks --delay 0.01\n`,
  );
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await server.close();
  return 0;
}
