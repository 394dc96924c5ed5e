// Helpers for trajectory-rules.cjs: loads out/traj/*.json (research/scripts/trajectory-dump.ts).
const fs = require('fs');
const dir = process.env.TRAJ_DIR || 'out/traj';
exports.load = () => fs.readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(fs.readFileSync(`${dir}/${f}`, 'utf8')));
exports.l1 = (a, b) => { let s = 0; for (let i = 0; i < a.length; i++) s += Math.abs(a[i] - b[i]); return s; };
exports.S = [0, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4, 6, 10, 20, 50];
exports.mix = (a, b, lam) => { const o = a.map((x, i) => x + lam * (b[i] - x)); let s = 0; for (let i = 0; i < o.length; i++) { if (o[i] < 0) o[i] = 0; s += o[i]; } return o.map((x) => x / s); };
exports.dot = (a, b) => { let s = 0; for (let i = 0; i < a.length; i++) s += a[i] * b[i]; return s; };
exports.sub = (a, b) => a.map((x, i) => x - b[i]);
// Mean final L1 of an estimate rule per set, vs SC; rule(rec) returns a vector over L (or null = supergraph).
exports.evaluate = (recs, rule, label, verbose) => {
  const sets = { tuned: [], heldout: [], validation: [] };
  for (const r of recs) {
    const v = r.prefix && r.prefix[1] ? rule(r) : null;
    const e = exports.l1(v ?? r.sgFinal, r.target);
    (sets[r.set] ??= []).push({ spec: r.spec, e, sc: r.sc });
  }
  const summary = (xs) => { if (!xs.length) return ''; const m = xs.reduce((a, x) => a + x.e, 0) / xs.length, s = xs.reduce((a, x) => a + x.sc, 0) / xs.length; const worse = xs.filter((x) => x.e > 1.05 * x.sc); return `${(100 * (m / s - 1)).toFixed(1)}% (${m.toFixed(4)}) w${worse.length}${worse.length ? '[' + worse.map((x) => x.spec + ' ' + (x.e / x.sc).toFixed(2)).join(',') + ']' : ''}`; };
  const all = [...sets.tuned, ...sets.heldout];
  console.log(`${label.padEnd(40)} tuned ${summary(sets.tuned)} | heldout ${summary(sets.heldout)} | all24 ${summary(all)}${sets.validation.length ? ' | valid ' + summary(sets.validation) : ''}`);
  if (verbose) for (const r of recs) if (r.prefix && r.prefix[1]) { const v = rule(r); console.log('   ', r.set, r.spec.padEnd(40), 'sc', r.sc.toFixed(4), 'sg', exports.l1(r.sgFinal, r.target).toFixed(4), 'rule', exports.l1(v ?? r.sgFinal, r.target).toFixed(4)); }
};
