// Research: the checks (cosine / realised share / prefix) and sizes of W compared at three budgets, from out/checked-diagnostics.json.
const out = JSON.parse(require('fs').readFileSync('out/checked-diagnostics.json'));
const l1 = (a, b) => a.reduce((s, x, i) => s + Math.abs(x - b[i]), 0);
const dot = (a, b) => a.reduce((s, x, i) => s + x * b[i], 0);
const sub = (a, b) => a.map((x, i) => x - b[i]);
function feats(r, s, h) {
  const p = r.prefix[h]; const M = sub(r.sgFinal, p.sg), D = sub(p[s], p.sg);
  const mm = dot(M, M), dd = dot(D, D);
  return { cos: mm > 0 && dd > 0 ? dot(M, D) / Math.sqrt(mm * dd) : NaN, beta: dd > 0 ? dot(M, D) / dd : NaN };
}
const rules = {
  'A cos.5>=.25': (r, s) => feats(r, s, 0.5).cos >= 0.25,
  'B cos.5>=.25&beta.5>=.02': (r, s) => { const f = feats(r, s, 0.5); return f.cos >= 0.25 && f.beta >= 0.02; },
  'B2 cos.5>=.25&beta.5>=.05': (r, s) => { const f = feats(r, s, 0.5); return f.cos >= 0.25 && f.beta >= 0.05; },
  'C cos.75>=.25&beta.75>=.03': (r, s) => { const f = feats(r, s, 0.75); return f.cos >= 0.25 && f.beta >= 0.03; },
  'D beta.5>=.02': (r, s) => feats(r, s, 0.5).beta >= 0.02,
  'E cos.25>=.25&beta.25>=.05': (r, s) => { const f = feats(r, s, 0.25); return f.cos >= 0.25 && f.beta >= 0.05; },
};
const budgets = ['half', 'issue', 'double'];
for (const s of ['0.5', '0.625', '0.75', '0.875', '1']) for (const [name, rule] of Object.entries(rules)) {
  const parts = budgets.map((b) => {
    let sum = 0, sc = 0, worst = 0, wname = '', n = 0;
    for (const r of out.filter((r) => r.budget === b)) {
      const use = r.frontier > 0 && rule(r, s);
      const v = l1(use ? r.worldFinal[s] : r.sgFinal, r.target);
      sum += v; sc += r.sc; const q = v / r.sc; if (q > worst) { worst = q; wname = r.spec.slice(-8); } if (q > 1.05) n++;
    }
    return `${b} ${((sum / sc - 1) * 100).toFixed(1)}% worst ${worst.toFixed(2)} ${wname} n${n}`;
  });
  console.log(('s ' + s + ' ' + name).padEnd(36), parts.join(' | '));
}
console.log('--- h=0.75 features, s=0.75 (world better than sg? and SC)');
for (const r of out) { if (r.frontier === 0) { console.log(r.spec.padEnd(40), r.budget, 'frontier empty'); continue; } const f = feats(r, '0.75', 0.75); const g = feats(r, '0.75', 0.5); console.log(r.spec.padEnd(40), r.budget.padEnd(6), 'cos', f.cos.toFixed(3), 'beta', f.beta.toFixed(4), '| h.5 cos', g.cos.toFixed(3), 'beta', g.beta.toFixed(4), '| sg', l1(r.sgFinal, r.target).toFixed(4), 'w', l1(r.worldFinal['0.75'], r.target).toFixed(4), 'sc', r.sc.toFixed(4)); }
