// Research: the cross-validation rules for W's size (R1, R2, oracle) of research/docs/history.md, from out/world-scale-candidates.json.
// Cross-validation rules for the scale s (no gate): R1 = the s whose prefix estimate best predicts the final supergraph estimate;
// R2 = the s whose prefix estimate best predicts its own final estimate; oracle = best s per domain by the truth.
const out = JSON.parse(require('fs').readFileSync('out/world-scale-candidates.json'));
const l1 = (a, b) => a.reduce((s, x, i) => s + Math.abs(x - b[i]), 0);
const fixed = 0.8985;
const scRef = { 'host:www.hollins.edu': 0.1068, 'prefix:http://www1.hollins.edu/registrar': 0.0591, 'ball:1:3': 0.8271, 'ball:29911:3': 0.8764, 'ball:133599:3': 0.0313, 'ball:198404:3': 0.3110 };
const C = ['sg', 'w0', 'w0.125', 'w0.25', 'w0.5', 'w0.625', 'w0.75', 'w0.875', 'w1', 'w2', 'w4'];
for (const sel of ['outlink', 'sc', 'random', 'pf']) for (const h of [0.25, 0.5]) {
  const rules = { R1: (e) => C.reduce((b, c) => (l1(e[h][c], e[1].sg) < l1(e[h][b], e[1].sg) ? c : b)), R2: (e) => C.reduce((b, c) => (l1(e[h][c], e[1][c]) < l1(e[h][b], e[1][c]) ? c : b)) };
  for (const [name, rule] of Object.entries(rules)) {
    let sum = fixed, n = 0, worst = 0; const picks = [];
    for (const r of out.filter((r) => r.sel === sel)) { const c = rule(r.est); const v = l1(r.est[1][c], r.target); sum += v; const q = v / scRef[r.spec]; worst = Math.max(worst, q); if (q > 1.05) n++; picks.push(`${r.spec.slice(-10)}:${c}=${v.toFixed(3)}`); }
    console.log(sel, 'h', h, name, (sum / 12).toFixed(4), ((sum / 12 / 0.2592 - 1) * 100).toFixed(1) + '%', 'worst', worst.toFixed(2), 'n', n, picks.join(' '));
  }
}
for (const sel of ['outlink', 'sc', 'random', 'pf']) { let sum = fixed; for (const r of out.filter((r) => r.sel === sel)) sum += Math.min(...C.map((c) => l1(r.est[1][c], r.target))); console.log(sel, 'oracle s per domain', (sum / 12).toFixed(4), ((sum / 12 / 0.2592 - 1) * 100).toFixed(1) + '%'); }
