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

// labcode.corpus.encode: one id per character (code point, as Python iterates a str);
// a character outside the vocabulary becomes the unk id. `index` maps token -> id.
export function encode(text, index, unk) {
  return Array.from(text, (ch) => (index.has(ch) ? index.get(ch) : unk));
}

// labcode.embedding: the row E[ids[t]] for every position t (copies, as NumPy's E[ids]).
export function embedding(E, ids) {
  return ids.map((i) => E[i].slice());
}

// labcode.embedding_backward: dE of shape (V, D), zero but for the rows read; every use of a row
// adds the upstream gradient of its position (np.add.at), so a row read twice gets a sum of two.
export function embeddingBackward(gradOut, ids, numEmbeddings) {
  const D = gradOut.length ? gradOut[0].length : 0;
  const dE = Array.from({ length: numEmbeddings }, () => new Array(D).fill(0));
  ids.forEach((i, t) => {
    for (let d = 0; d < D; d++) dE[i][d] += gradOut[t][d];
  });
  return dE;
}

// What NumPy's `dE[ids] += gradOut` does (the overwrite bug): it reads every row dE[ids[t]] first,
// adds gradOut[t], then writes the results back in order, so a repeated id keeps only its last write.
export function embeddingBackwardOverwrite(gradOut, ids, numEmbeddings) {
  const D = gradOut.length ? gradOut[0].length : 0;
  const dE = Array.from({ length: numEmbeddings }, () => new Array(D).fill(0));
  const read = ids.map((i) => dE[i].slice()); // (T, D) gathered before any write
  ids.forEach((i, t) => {
    dE[i] = read[t].map((v, d) => v + gradOut[t][d]);
  });
  return dE;
}

// Rows read and how often, in the order of their first use: [[id, count], ...].
export function useCounts(ids) {
  const counts = new Map();
  for (const i of ids) counts.set(i, (counts.get(i) || 0) + 1);
  return [...counts];
}
