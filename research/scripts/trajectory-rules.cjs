// Research (research/docs/history.md, "The trajectory estimate"): the rules measured on out/traj/*.json
// (research/scripts/trajectory-dump.ts) — λ·(world_s − supergraph) with λ = cos(M, D)·realised / q per window
// (q = pages crawled since the prefix / the prefix's frontier pages, or the share of the prefix's frontier links
// resolved since), aggregated over windows, for several s and caps; mean final L1 against SC-Select per set and the
// worst ratio to SC. Usage: node research/scripts/trajectory-rules.cjs [all]
const { load, l1, dot, sub } = require('./trajectory-lib.cjs');
const all = load();
const recs = all.filter((r) => r.prefix && r.prefix[1]);
const add = (a, b, c) => { const o = a.map((x, i) => Math.max(0, x + c * b[i])); const s = o.reduce((x, y) => x + y, 0); return o.map((x) => x / s); };
const tot = {}, exh = {};
for (const r of all) { tot[r.set] = (tot[r.set] ?? 0) + r.sc; exh[r.set] ??= 0; if (!(r.prefix && r.prefix[1])) exh[r.set] += l1(r.sgFinal, r.target); }
function run(label, lamOf) {
  const sum = { ...exh }; let worst = 0, wspec = ''; const lams = [];
  for (const r of recs) {
    const lam = lamOf(r); const f = r.prefix[1];
    const v = lam === null ? f.sg : lam.s === 'checked' ? r.checked : add(f.sg, sub(f['w' + lam.s], f.sg), lam.l);
    const e = l1(v, r.target); sum[r.set] += e; if (e / r.sc > worst) { worst = e / r.sc; wspec = r.spec; }
    lams.push(lam === null ? '-' : lam.l.toFixed(2));
  }
  const pct = (a, b) => (100 * (a / b - 1)).toFixed(1);
  const sets = Object.keys(tot).map((s) => `${s} ${pct(sum[s], tot[s])}`).join(' ');
  const known = ['tuned', 'heldout'].filter((s) => s in tot);
  const k = known.length === 2 ? ` all24 ${pct(sum.tuned + sum.heldout, tot.tuned + tot.heldout)}` : '';
  console.log(label.padEnd(34), sets + k, 'worst', worst.toFixed(2), wspec, '| λ', lams.join(' '));
}
const stats = (r, h, s, qk) => {
  const f = r.prefix[1], p = r.prefix[h]; const M = sub(f.sg, p.sg), D = sub(p['w' + s], p.sg);
  const q = qk === 'pages' ? (f.pages - p.pages) / p.frontierPages : p.resolved / (p.fromLtoW + p.toW);
  return { cos: dot(M, D) / Math.sqrt(dot(M, M) * dot(D, D)), rho: dot(M, D) / dot(D, D), q };
};
const weight = (r, h, s, qk) => { const { cos, rho, q } = stats(r, h, s, qk); return rho > 0 && cos > 0 ? (rho / q) * cos : 0; };
console.log('domains:', recs.map((r) => r.spec).join(' | '));
run('supergraph', () => null);
run('checked (best)', () => ({ s: 'checked', l: 1 }));
const aggs = { single: null, mean: (xs) => xs.reduce((a, b) => a + b, 0) / xs.length, min: (xs) => Math.min(...xs) };
for (const qk of ['pages', 'links'])
  for (const Hs of [[0.5], [0.625], [0.75], [0.875], [0.75, 0.875], [0.625, 0.75, 0.875], [0.5, 0.625, 0.75, 0.875]])
    for (const agg of Hs.length === 1 ? ['single'] : ['mean', 'min'])
      for (const s of [0.75, 1, 2, 3, 6])
        for (const lmax of [5, 10, Infinity])
          run(`${qk} ${agg} ${Hs.join(',')} s${s} cap${lmax}`, (r) => {
            const ls = Hs.map((h) => weight(r, h, s, qk)); const l = Math.min(lmax, Hs.length === 1 ? ls[0] : aggs[agg](ls));
            return l > 0 ? { s, l } : null;
          });
