// Maths shared by every widget (labcode/widgets/*.js) and by the pages' own scripts.
// Each function mirrors a labcode function, and the browser tests compare them:
// the page computes by itself, so it stays live with no kernel.
// A widget imports what it uses (`import { softmax } from "./maths.js";`); esbuild bundles it into the widget's
// module (web/build_widgets.mjs). No imports here: tests/unit/test_widget_base.py loads this file by itself.

// labcode.logsumexp for one row: shift by the max so exp never overflows.
export function logsumexp(z) {
  const m = Math.max(...z);
  if (m === -Infinity) return -Infinity;
  return m + Math.log(z.reduce((total, v) => total + Math.exp(v - m), 0));
}

// labcode.softmax for one row, with temperature tau (shift first, then divide by tau).
export function softmax(z, tau = 1) {
  const m = Math.max(...z);
  const e = z.map((v) => Math.exp((v - m) / tau));
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

// labcode.gradient_step: one step of gradient descent on the scores of one position, z - lr * (p - e_y).
export function gradientStep(z, y, lr) {
  const g = crossEntropyGrad(z, y);
  return z.map((v, k) => v - lr * g[k]);
}

// Whether adding `delta` to every score keeps each one within [lo, hi]: the softmax explorer's
// "所有分数 ±1" buttons stop at the sliders' ends, so every slider still shows the score it holds.
export function shiftFits(z, delta, lo, hi) {
  const slack = 1e-9 * Math.max(1, Math.abs(lo), Math.abs(hi)); // 0.1 + 0.2 is not 0.3
  return z.every((v) => v + delta >= lo - slack && v + delta <= hi + slack);
}

// Number formatting shared with labcode.widgets.fmt: fixed decimals, plain "-",
// and no "-0.000" (a value that rounds to zero prints without a sign).
export function fmt(x, digits) {
  const text = x.toFixed(digits);
  return Number(text) === 0 ? (0).toFixed(digits) : text;
}

// Shortest form of a number, as labcode.widgets._base.short (Python's f"{x:g}"): six significant digits, no
// trailing zeros, and e-notation (1e-05, 2.5e+06) when the exponent is below −4 or 6 and up.
export function short(x) {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? "nan" : x > 0 ? "inf" : "-inf";
  if (x === 0) return Object.is(x, -0) ? "-0" : "0";
  const [mantissa, exponent] = x.toExponential(5).split("e").map(Number);   // rounded first, as Python does
  if (exponent < -4 || exponent >= 6) {
    return `${mantissa}e${exponent < 0 ? "-" : "+"}${String(Math.abs(exponent)).padStart(2, "0")}`;
  }
  return String(Number(x.toFixed(5 - exponent)));
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

// A (V, D) table of zeros, as wide as the rows of gradOut.
const zeroRows = (gradOut, V) => Array.from({ length: V }, () => (gradOut.length ? gradOut[0].map(() => 0) : []));

// labcode.embedding_backward: dE of shape (V, D), zero but for the rows read; every use of a row
// adds the upstream gradient of its position (np.add.at), so a row read twice gets a sum of two.
export function embeddingBackward(gradOut, ids, numEmbeddings) {
  const dE = zeroRows(gradOut, numEmbeddings);
  ids.forEach((i, t) => {
    dE[i] = dE[i].map((v, d) => v + gradOut[t][d]);
  });
  return dE;
}

// labcode.embedding_backward_overwrite, the overwrite bug `dE[ids] += dH`: every row dE[ids[t]] is read
// first, gradOut[t] added, and the results written back, so each element of a repeated row keeps one of
// its writes. NumPy does not say which one (not even that a row's elements come from one write); this copy
// writes in order (the last survives), as NumPy does on the machines the tests run on, and they compare the two.
export function embeddingBackwardOverwrite(gradOut, ids, numEmbeddings) {
  const dE = zeroRows(gradOut, numEmbeddings);
  const read = ids.map((i) => dE[i].slice()); // (T, D) gathered before any write
  ids.forEach((i, t) => {
    dE[i] = read[t].map((v, d) => v + gradOut[t][d]);
  });
  return dE;
}

// labcode.embedding.rows_read: rows read and how often, in the order of their first use: [[id, count], ...].
export function useCounts(ids) {
  const counts = new Map();
  for (const i of ids) counts.set(i, (counts.get(i) || 0) + 1);
  return [...counts];
}

// ---- bigram model from a count matrix C (labcode.bigram) ----
// A V x V matrix is a flat Float64Array in row-major order here (fast to step in place);
// the nested-array functions below are the labcode-shaped entry points.

// labcode.bigram.loss_and_grad_from_counts on flat arrays (C: the counts, V x V); writes the gradient into `grad`.
//   loss = -sum_ij C_ij log softmax(W)_ij / sum C + reg * mean(W^2)
//   grad = (rowsum(C)_i * softmax(W)_ij - C_ij) / sum C + 2 * reg * W_ij / V^2
export function countLossGradFlat(W, C, V, reg, grad) {
  let total = 0;
  for (let k = 0; k < V * V; k++) total += C[k];
  let nll = 0, sq = 0;
  for (let i = 0, o = 0; i < V; i++, o += V) {
    let m = -Infinity, rowsum = 0;
    for (let j = 0; j < V; j++) { if (W[o + j] > m) m = W[o + j]; rowsum += C[o + j]; }
    let S = 0;
    for (let j = 0; j < V; j++) { const e = Math.exp(W[o + j] - m); grad[o + j] = e; S += e; }
    const lse = m + Math.log(S);
    for (let j = 0; j < V; j++) {
      const w = W[o + j];
      if (C[o + j] !== 0) nll += C[o + j] * (lse - w);
      sq += w * w;
      grad[o + j] = (rowsum * (grad[o + j] / S) - C[o + j]) / total + 2 * reg * w / (V * V);
    }
  }
  return nll / total + reg * sq / (V * V);
}

// One full-batch gradient-descent step in place: W <- W - lr * grad. Returns the loss before the step.
export function countStepFlat(W, C, V, reg, lr, grad) {
  const loss = countLossGradFlat(W, C, V, reg, grad);
  for (let k = 0; k < V * V; k++) W[k] -= lr * grad[k];
  return loss;
}

// labcode.bigram.loss_and_grad_from_counts(W, counts, reg) for nested arrays (V rows of V numbers).
export function lossAndGradFromCounts(W, counts, reg = 0) {
  const V = W.length;
  const grad = new Float64Array(V * V);
  const loss = countLossGradFlat(Float64Array.from(W.flat()), Float64Array.from(counts.flat()), V, reg, grad);
  return { loss, grad: Array.from({ length: V }, (_, i) => Array.from(grad.subarray(i * V, (i + 1) * V))) };
}

// labcode.bigram.count_optimum: average negative log-likelihood of the count model P_ij = C_ij / rowsum_i
// on the counts themselves (0 log 0 = 0). No W does better on loss_and_grad_from_counts with reg = 0.
export function countOptimum(C, V) {
  let total = 0, nll = 0;
  for (let i = 0, o = 0; i < V; i++, o += V) {
    let rowsum = 0;
    for (let j = 0; j < V; j++) rowsum += C[o + j];
    for (let j = 0; j < V; j++) if (C[o + j] > 0) nll -= C[o + j] * Math.log(C[o + j] / rowsum);
    total += rowsum;
  }
  return nll / total;
}

// mulberry32: a small seeded generator of numbers in [0, 1). The same seed gives the same sequence
// in every browser (it uses 32-bit integer arithmetic only).
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Sample words from the bigram rows softmax(W_i / tau): start at symbol 0 ('.'), stop when 0 comes back
// (or after maxLen symbols). W is flat V x V; returns arrays of symbol ids without the '.' ends.
export function sampleBigram(W, V, temperature, rand, n, maxLen) {
  const words = [];
  for (let w = 0; w < n; w++) {
    const ids = [];
    let i = 0;
    while (ids.length < maxLen) {
      const probs = softmax(Array.from(W.subarray(i * V, (i + 1) * V)), temperature);
      let u = rand(), j = 0;
      while (j < V - 1 && u >= probs[j]) { u -= probs[j]; j++; }
      if (j === 0) break;
      ids.push(j);
      i = j;
    }
    words.push(ids);
  }
  return words;
}

// ---- the hand computations of the answer boxes (_ext/answer_box) ----

// labcode.valid_mean: the losses where the target is not ignoreIndex, summed and divided by how many
// there are (cross_entropy's "mean"). Nested arrays of any depth, losses and targets of the same shape.
export function validMean(losses, targets, ignoreIndex = -100) {
  const kept = [targets].flat(Infinity).map((t) => t !== ignoreIndex);
  const valid = [losses].flat(Infinity).filter((_, k) => kept[k]);
  return valid.reduce((total, v) => total + v, 0) / valid.length;
}

// labcode.linear for rows: Z = X W (+ b), with X of shape (n, d), W (d, m), b (m,).
export function linear(X, W, b = null) {
  return X.map((x) => W[0].map((_, j) => x.reduce((s, v, i) => s + v * W[i][j], b ? b[j] : 0)));
}
