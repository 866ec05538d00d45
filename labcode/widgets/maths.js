// Maths shared by every widget of the family (labcode/widgets/*.js).
// Each function mirrors a labcode function, and the browser tests compare them:
// the page computes by itself, so it stays live with no kernel.

// labcode.logsumexp for one row: shift by the max so exp never overflows.
export function logsumexp(z) {
  const m = Math.max(...z);
  if (m === -Infinity) return -Infinity;
  let total = 0;
  for (const v of z) total += Math.exp(v - m);
  return m + Math.log(total);
}

// labcode.softmax for one row, with temperature T (shift first, then divide by T).
export function softmax(z, T = 1) {
  const m = Math.max(...z);
  const e = z.map((v) => Math.exp((v - m) / T));
  const total = e.reduce((a, b) => a + b, 0); // in [1, V]
  return e.map((v) => v / total);
}

// labcode.cross_entropy for one row and an integer target: logsumexp(z) - z_y.
export function crossEntropy(z, y) {
  return logsumexp(z) - z[y];
}

// labcode.cross_entropy_grad for one row: p - e_y.
export function crossEntropyGrad(z, y) {
  return softmax(z).map((p, k) => p - (k === y ? 1 : 0));
}

// One step of gradient descent on the logits of one row: z - lr * (p - e_y).
export function gradientStep(z, y, lr) {
  const g = crossEntropyGrad(z, y);
  return z.map((v, k) => v - lr * g[k]);
}

// Number formatting shared with labcode.widgets.fmt: fixed decimals, plain "-",
// and no "-0.000" (a value that rounds to zero prints without a sign).
export function fmt(x, digits) {
  const text = x.toFixed(digits);
  return Number(text) === 0 ? (0).toFixed(digits) : text;
}

// Shortest form of a slider value, like Python's f"{x:g}" for the values a slider can take.
export function short(x) {
  return String(Number(x.toPrecision(6)));
}
