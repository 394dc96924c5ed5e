import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../server/cli/main.ts';
import { randomEdgeList } from './helpers/random-graphs.ts';
import { hasSharedData, sharedDataSkipReason, sharedGraphFile } from './helpers/shared-data.ts';

describe('lse experiment', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lse-cli-'));
  const nodes = join(dir, 'toy.nodes.tsv');
  const edges = join(dir, 'toy.edges.tsv');
  let output = '';
  let errors = '';

  beforeEach(() => {
    output = '';
    errors = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((output += String(chunk)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((errors += String(chunk)), true));
  });
  afterEach(() => vi.restoreAllMocks());

  const list = randomEdgeList(4, 300, 0.012, 0.1);
  writeFileSync(nodes, Array.from({ length: 300 }, (_, i) => `${i + 1}\thttp://${i < 40 ? 'local' : `h${i % 17}`}.example/p${i}\t${i < 40 ? 'local' : `h${i % 17}`}.example\n`).join(''));
  writeFileSync(edges, list.edges.map(([a, b]) => `${a + 1}\t${b + 1}\n`).join(''));

  it('prints the table and writes result.json and one SVG chart per domain', async () => {
    const out = join(dir, 'out');
    const code = await main(['experiment', '--nodes', nodes, '--edges', edges, '--domain', 'host:local.example', '--domain', 'ball:1:1', '--iterations', '5', '--extra', '1n', '--out', out]);
    expect(errors).toMatch(/toy: 300 pages/); // the summary and progress go to stderr, the table to stdout
    expect(code).toBe(0);
    expect(output).toMatch(/local PageRank/);
    expect(output).toMatch(/SC-Select/);
    const result = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8'));
    expect(result.graph).toEqual({ pages: 300, links: expect.any(Number) });
    expect(result.domains).toHaveLength(2);
    const domain = result.domains[0];
    expect(domain).toMatchObject({ spec: 'host:local.example', pages: 40, baseline: { l1: expect.any(Number), linf: expect.any(Number), tau: expect.any(Number) } });
    expect(Object.keys(domain.selectors)).toEqual(['sc', 'pf', 'outlink', 'random', 'best', 'default']);
    const sc = domain.selectors.sc;
    expect(sc.perIteration).toHaveLength(6);
    expect(Object.keys(sc.perIteration[1]).sort()).toEqual(['crawled', 'iteration', 'l1', 'linf', 'ms', 'pagerankIterations', 'tau']);
    expect(Object.keys(sc.final).sort()).toEqual(['crawled', 'l1', 'linf', 'seconds', 'tau']);
    expect(sc.perIteration[0].l1).toBe(domain.baseline.l1);
    const charts = readdirSync(out).filter((f) => f.endsWith('.svg'));
    expect(charts).toHaveLength(2);
    const svg = readFileSync(join(out, charts[0]), 'utf8');
    for (const text of ['SC-Select', 'PF-Select', 'OutlinkCount', 'Random', 'Default', 'FindGlobalPR iteration', 'L1 distance']) expect(svg).toContain(text);
  });


  it('--rounds R: the L1 after each round in the table and result.json, the iterations numbered on', async () => {
    const out = join(dir, 'rounds');
    const code = await main(['experiment', '--nodes', nodes, '--edges', edges, '--domain', 'host:local.example', '--selectors', 'sc,random', '--iterations', '4', '--extra', '0.5n', '--rounds', '3', '--out', out]);
    expect(code).toBe(0);
    expect(output).toMatch(/L1 round 1 +L1 round 2 +L1 round 3 +L1/);
    expect(output).toMatch(/20 extra pages in 4 iterations a round, 3 rounds/);
    const result = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8'));
    expect(result.settings.rounds).toBe(3);
    const sc = result.domains[0].selectors.sc;
    expect(sc.perIteration.map((it: { iteration: number }) => it.iteration)).toEqual(Array.from({ length: 13 }, (_, i) => i));
    expect(sc.rounds.map((r: { round: number; crawled: number }) => [r.round, r.crawled])).toEqual([[1, 20], [2, 40], [3, 60]]);
    expect(sc.rounds[2].l1).toBe(sc.final.l1);
    expect(sc.rounds[0].l1).toBe(sc.perIteration[4].l1);
    expect(output).toContain(sc.rounds[1].l1.toFixed(4));
  });

  it.each([
    [['--domain', 'planet:mars'], /unknown domain kind "planet"/],
    [['--domain', 'host:nowhere.example'], /selects no pages/],
    [['--domain', 'ids:/no/such/file'], /cannot read the domain file/],
    [['--domain', 'ball:1'], /ball:ID:R/],
    [['--domain', 'host:local.example', '--selectors', 'sc,magic'], /unknown selector "magic"/],
    [['--domain', 'host:local.example', '--estimator', 'oracle'], /unknown estimator "oracle"/],
    [['--domain', 'host:local.example', '--alpha', '1.5'], /--alpha/],
    [['--domain', 'host:local.example', '--rounds', '0'], /--rounds must be an integer ≥ 1/],
    [['--domain', 'host:local.example', '--extra', 'lots'], /--extra/],
    [['--domain', 'host:local.example', '--iterations', 'ten'], /--iterations must be a number/],
    [['--domain', 'host:local.example', '--bogus'], /Unknown option '--bogus'/],
  ])('exits 2 with a clear message for %j', async (flags, message) => {
    const code = await main(['experiment', '--nodes', nodes, '--edges', edges, ...flags]);
    expect(code).toBe(2);
    expect(errors).toMatch(message);
  });

  it('exits 2 when the graph file cannot be read, and label: needs a nodes file', async () => {
    expect(await main(['experiment', '--edges', join(dir, 'missing.tsv'), '--domain', 'host:x'])).toBe(2);
    expect(errors).toMatch(/cannot read .*missing\.tsv/);
    expect(await main(['experiment', '--edges', edges, '--domain', 'label:red'])).toBe(2);
    expect(errors).toMatch(/needs labels: give the graph's nodes file/);
  });

  it('lists its commands and shows a command’s flags', async () => {
    expect(await main(['help'])).toBe(0);
    expect(output).toMatch(/experiment/);
    expect(await main(['help', 'experiment'])).toBe(0);
    expect(output).toMatch(/--selectors/);
    expect(await main(['no-such-command'])).toBe(2);
  });
});

describe.skipIf(!hasSharedData)(`lse experiment --selectors default on the shared graphs${hasSharedData ? '' : ` (${sharedDataSkipReason})`}`, () => {
  beforeEach(() => {
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });
  afterEach(() => vi.restoreAllMocks());

  /** Per method, the L1 distance to the truth at every iteration, of each domain. */
  async function runDefault(graph: string, domains: string[], iterations: string, extra: string) {
    const out = mkdtempSync(join(tmpdir(), 'lse-default-'));
    const code = await main(['experiment', '--nodes', sharedGraphFile(graph, 'nodes'), '--edges', sharedGraphFile(graph, 'edges'), ...domains.flatMap((d) => ['--domain', d]), '--selectors', 'sc,best,default', '--iterations', iterations, '--extra', extra, '--out', out]);
    expect(code).toBe(0);
    const result = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as { domains: Array<{ spec: string; selectors: Record<string, { perIteration: Array<{ l1: number }> }> }> };
    return result.domains.map((domain) => ({ spec: domain.spec, l1: (name: string) => domain.selectors[name].perIteration.map((it) => it.l1) }));
  }

  it('runs SC-Select on site domains (host, prefix) and best on topic communities (label), named default in result.json', async () => {
    const sites = await runDefault('hollins', ['prefix:http://www1.hollins.edu/registrar', 'host:www.hollins.edu'], '10', '1n');
    const topics = await runDefault('polblogs', ['label:conservative'], '10', '0.5n');
    for (const site of sites) expect(site.l1('default'), site.spec).toEqual(site.l1('sc'));
    for (const topic of topics) expect(topic.l1('default'), topic.spec).toEqual(topic.l1('best'));
    // SC-Select and best crawl differently on these domains, so each equality says which method ran.
    for (const domain of [...sites, ...topics]) expect(domain.l1('sc'), domain.spec).not.toEqual(domain.l1('best'));
  });
});
