// Answer boxes ("动手算"): a reader's own hand computation, checked with no kernel and no network.
// One module for every place a box lives. esbuild bundles it (web/build_widgets.mjs) as the anywidget ES module of
// labcode.widgets.AnswerBox (`render`) in a running notebook, and as the site's classic page script, where
// `startPage` sets up every box of the page, from file:// too; the site's build renders each box's HTML with
// `markup`, in Node (_ext/answer_box). Each kind's answer is a formula (its value, and the parts a wrong answer
// can miss); its new numbers are seeded by the label and a variant ID (the worksheets draw them with this very
// script, in Node: web/answer_boxes.cjs). Nothing leaves the browser; on the site only the list of solved boxes is
// kept, in localStorage.
import {
  crossEntropyGrad, fmt, gradientStep, linear, mulberry32, softmax, validMean,
} from "./maths.js";
import { keepControlKeys, make } from "./dom.js";

// ---- reading what a person writes on paper ----
class ReadError extends Error {}
const SAME = { "−": "-", "–": "-", "—": "-", "×": "*", "·": "*", "⋅": "*", "÷": "/", "、": ",", "；": ",",
               ";": ",", "【": "[", "】": "]", "π": "pi", "\u3000": " ", "。": "", "²": "^2", "³": "^3" };
// An answer is a few numbers or short formulas: longer input, or brackets nested deeper, is refused with a
// message (and the reader never recurses past what a browser's stack holds).
const MAX_LENGTH = 400, MAX_DEPTH = 40;

// Full-width forms (（）［］，－／０-９％ …) become ASCII, and ** becomes ^. A Chinese input method types "。" for
// ".": between digits it is the decimal point (1。25), elsewhere a full stop.
const ascii = (text) => text.replace(/[\uFF01-\uFF5E]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))
  .replace(/(\d)。(?=\d)/g, "$1.")
  .replace(/[−–—×·⋅÷、；;【】π\u3000。²³]/g, (c) => SAME[c])
  .replace(/\*\*/g, "^");
// "p = …" and "ln(7/2) ≈ 1.2528" keep what follows the last = or ≈.
const normalise = (text) => ascii(text).split(/[=≈]/).pop().trim();

const TOKEN = /\s*(?:(\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)|([A-Za-z]+)|([-+*/^()%,[\]]))/y;
// Each function with where it has a finite value: outside it, the reader is told why, with the argument it got.
const FUNCTIONS = { ln: [Math.log, (x) => x > 0, "ln 只对大于 0 的数有定义"], exp: [Math.exp, () => true],
                    log: [Math.log, (x) => x > 0, "log 只对大于 0 的数有定义"],
                    sqrt: [Math.sqrt, (x) => x >= 0, "sqrt 只对不小于 0 的数有定义"] };
// The reader's own text inside a message: in Chinese quotes, at most 24 characters, with $ and ` (the message's
// marks) made full-width.
const quote = (text) => {
  const chars = Array.from(String(text));
  const cut = chars.length > 24 ? chars.slice(0, 20).join("") + "…" : chars.join("");
  return `“${cut.replace(/\$/g, "＄").replace(/`/g, "｀")}”`;
};
// A character one cannot see (U+200B, NUL, U+202E …) is named by its code, so the reader knows what to delete.
const INVISIBLE = { 0x0: "空字符", 0x200b: "零宽空格", 0x200c: "零宽非连接符", 0x200d: "零宽连接符",
                    0x200e: "从左到右标记", 0x200f: "从右到左标记", 0x202e: "从右到左覆盖", 0x2060: "字连接符",
                    0xfeff: "零宽不换行空格" };
const symbolName = (c) => {
  if (!/[\p{C}\p{Z}\p{M}]/u.test(c)) return quote(c);
  const code = c.codePointAt(0), name = INVISIBLE[code];
  return `U+${code.toString(16).toUpperCase().padStart(4, "0")}（看不见的字符${name ? "：" + name : ""}，删掉它再试）`;
};
const printed = (x) => String(Math.round(x * 1e4) / 1e4).replace("-", "−");
const CONSTANTS = { e: Math.E, pi: Math.PI };

function tokens(text) {
  const found = [];
  let at = 0;
  while (text.slice(at).trim()) {
    TOKEN.lastIndex = at;
    const m = TOKEN.exec(text);
    if (!m) throw new ReadError(`不认识符号${symbolName(String.fromCodePoint(text.slice(at).trim().codePointAt(0)))}`);
    if (m[1] !== undefined) found.push({ type: "number", value: parseFloat(m[1]), typed: m[1] });
    else if (m[2] !== undefined) found.push({ type: "name", value: m[2].toLowerCase(), typed: m[2] });
    else found.push({ type: m[3] });
    at = TOKEN.lastIndex;
  }
  return found;
}

// One expression: + − * / ^ %, parentheses, ln / log (natural) / exp / sqrt, e and π; "2e", "2ln 2" and
// "(1+e)(2)" multiply. A recursive-descent reader: nothing is ever run as code.
function evaluate(text) {
  const list = tokens(text);
  let k = 0;
  const peek = (...types) => k < list.length && types.includes(list[k].type);
  function expression() {
    let value = term();
    while (peek("+", "-")) value = list[k++].type === "+" ? value + term() : value - term();
    return value;
  }
  function term() {
    let value = unary();
    for (;;) {
      if (peek("*", "/")) {
        if (list[k++].type === "*") { value *= unary(); continue; }
        const divisor = unary();
        if (divisor === 0) throw new ReadError("除数是 0");
        value /= divisor;
      }
      else if (peek("name", "(")) value *= power();
      else return value;
    }
  }
  function unary() {   // a run of signs is counted, not recursed into ("------1")
    let sign = 1;
    while (peek("+", "-")) if (list[k++].type === "-") sign = -sign;
    return sign * power();
  }
  function power() {
    let value = primary();
    while (peek("%")) { k++; value /= 100; }
    if (!peek("^")) return value;
    k++;
    const exponent = unary();
    if (value < 0 && !Number.isInteger(exponent)) {
      throw new ReadError(`负数的非整数次方在实数里没有定义，这里是 (${printed(value)})^${printed(exponent)}`);
    }
    return Math.pow(value, exponent);
  }
  function primary() {
    const t = list[k++];
    if (!t) throw new ReadError("算式没有写完");
    if (t.type === "number") return t.value;
    if (t.type === "(") {
      const value = expression();
      if (!peek(")")) {
        const next = list[k];   // "(4 1)": two numbers side by side, the comma between components forgotten
        throw new ReadError(next && (next.type === "number" || next.type === "name")
          ? "括号里的两个数之间少了逗号或运算符：分量之间用逗号隔开，例如 [4, 1]" : "括号没有配对");
      }
      k++;
      return value;
    }
    if (t.type === "name") {
      if (Object.hasOwn(CONSTANTS, t.value)) return CONSTANTS[t.value];
      if (Object.hasOwn(FUNCTIONS, t.value)) {
        const x = power(), [f, defined, rule] = FUNCTIONS[t.value];
        if (!defined(x)) throw new ReadError(`${rule}，这里 ${t.value} 的参数是 ${printed(x)}`);
        return f(x);
      }
      throw new ReadError(t.value === "in"   // "In" for "ln": a capital I and a lowercase l look alike
        ? `${quote(t.typed)}开头是字母 ${t.typed[0]}；自然对数写作 \`ln\`，开头是小写字母 L（l）`
        : `不认识${quote(t.typed)}（可以用 \`ln\`、\`log\`、\`exp\`、\`sqrt\`、\`e\`、\`π\`）`);
    }
    if (t.type === "[" || t.type === "]") {
      throw new ReadError(/\]\s*[-+]\s*\[/.test(text)
        ? "方括号只用来括住整个向量；两个向量相加，要在每个分量里加，例如 `[1, 2] + [3, -1]` 写成 `[1+3, 2-1]`"
        : "方括号只用来括住整个向量");
    }
    throw new ReadError(`“${t.type}”放错了地方`);
  }
  const value = expression();
  if (k < list.length) {
    const t = list[k];
    throw new ReadError(`${quote(t.typed ?? t.type)}前面少了运算符或逗号`);
  }
  return value;
}

// One number, finite: a value too large to hold, or none at all (∞ − ∞), is said as such.
function finite(part) {
  const value = evaluate(part);
  if (Number.isNaN(value)) throw new ReadError(`${quote(part)}算不出确定的值：中间有一步大到超出了能表示的范围（如 exp(1000)）`);
  if (!Number.isFinite(value)) throw new ReadError(`${quote(part)}算出来不是有限的数（太大了）`);
  return value;
}

// The bracket depth after each character of `text`.
function depths(text) {
  let depth = 0;
  return text.split("").map((c) => (depth += "([".includes(c) ? 1 : ")]".includes(c) ? -1 : 0));
}

// Where `text` holds a character matching `marks` outside any bracket.
function cuts(text, marks) {
  const depth = depths(text);
  return text.split("").flatMap((c, i) => (depth[i] === 0 && marks.test(c) ? [i] : []));
}

// Pieces of `text` separated by `separator` outside any bracket.
const split = (text, separator) => [-1, ...cuts(text, separator)]
  .map((i, j, at) => text.slice(i + 1, at[j + 1]).trim());

// A number that multiplies or divides a whole vector, as the answer keys write it: "[4, -5, 1]/7",
// "(1/7)*[4, -5, 1]", "[1, e, e^2]/(1+e+e^2)". Returns [the vector's text, the factor], or null when `s` is no
// such product. Each factor is one term (no + or − outside brackets), so "1 + 2*[1, 2]" is not read as 3·[1, 2].
function scaledVector(s) {
  const depth = depths(s), open = s.indexOf("[");
  if (open < 0 || (open > 0 && depth[open - 1] !== 0)) return null;
  const close = depth.indexOf(0, open);
  if (open === 0 && close === s.length - 1) return null;
  const before = s.slice(0, open).trim().replace(/\*$/, "").trim(), after = s.slice(close + 1).trim();
  if (!/^([*/]|$)/.test(after)) return null;
  const pieces = [...(before ? [["*", before]] : []), ...operands(after)];
  const oneTerm = (text) => split(text.replace(/^[-+]|(?<=[\^*/(]|\d[eE])\s*[-+]/g, ""), /[-+]/).length === 1;
  if (!pieces.every(([, text]) => text && oneTerm(text))) return null;
  let factor = 1;
  for (const [op, text] of pieces) {
    const value = /^[-+]$/.test(text) ? Number(text + "1") : finite(text);
    if (op === "/" && value === 0) throw new ReadError("除数是 0");
    factor = op === "/" ? factor / value : factor * value;
  }
  return [s.slice(open, close + 1), factor];
}

// "/7*2" → [["/", "7"], ["*", "2"]]: the operands of * and / outside any bracket, each with its operator.
const operands = (text) => cuts(text, /[*/]/).map((i, j, at) => [text[i], text.slice(i + 1, at[j + 1]).trim()]);

// "[4/7, -5/7, 1/7]", "(4/7，-5/7，1/7)", "4/7, -5/7, 1/7", NumPy's "[0.57 -0.71 0.14]" and "[4, -5, 1]/7" are
// vectors.
function readAnswer(text, length) {
  let s = normalise(text);
  if (s.length > MAX_LENGTH) throw new ReadError(`答案太长了（${s.length} 个字符，最多 ${MAX_LENGTH} 个）：只写答案本身`);
  const depth = depths(s);
  if (depth.some((d) => d < 0) || depth.at(-1) !== 0) throw new ReadError("括号没有配对");
  if (Math.max(...depth) > MAX_DEPTH) throw new ReadError(`括号套得太深（${Math.max(...depth)} 层，最多 ${MAX_DEPTH} 层）`);
  let factor;
  [s, factor] = scaledVector(s) || [s, 1];
  // One bracket around the whole answer ("(1+e)/(2)" is not), and either square or holding a comma.
  if ("[(".includes(s[0]) && depths(s).indexOf(0) === s.length - 1
      && (s[0] === "[" || split(s.slice(1, -1), /,/).length > 1)) {
    s = s.slice(1, -1).trim();
  }
  let parts = split(s, /,/);
  if (parts.length > 1 && parts.at(-1) === "") parts.pop();   // "[1, 2, ]"
  if (parts.length === 1 && length > 1) {   // "0.09 0.2447": components, even when one is missing
    const spaced = split(s, /\s/).filter((p) => p);
    if (spaced.length > 1 && spaced.every((p) => { try { evaluate(p); return true; } catch { return false; } })) {
      parts = spaced;
    }
  }
  return parts.map((part, k) => {
    if (!part) throw new ReadError(`编号为 ${k} 的分量是空的`);
    const value = finite(part) * factor;
    if (!Number.isFinite(value)) throw new ReadError(`编号为 ${k} 的分量算出来不是有限的数（太大了）`);
    return value;
  });
}

// ---- numbers for a new try: each kind draws them, solves them with maths.js and knows the classic slips ----
const num = (x) => String(Math.round(x * 1e6) / 1e6).replace("-", "−");
const vector = (a) => "$[" + a.map(num).join(", ") + "]$";
const rows = (m) => m.map(vector).join("、");
const int = (rand, lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));
const pick = (rand, list) => list[Math.floor(rand() * list.length)];
const sum = (a) => a.reduce((s, v) => s + v, 0);
const minus = (a, b) => a.map((v, k) => v - b[k]);
const scale = (a, c) => a.map((v) => v * c);
const list = (x) => (Array.isArray(x) ? x : [x]);

// The texts of a problem over one row of symbols (the two bigram kinds), with the kind's own in between.
const rowTexts = (v, own) => ({ symbols: v.symbols.map(quote).join("、"), V: String(v.symbols.length), ...own,
                                prev: quote(v.prev), next: quote(v.next) });

// Three different symbols of `pool`, in the order drawn.
function threeOf(rand, pool) {
  const found = new Set();
  while (found.size < 3) found.add(pick(rand, pool));
  return [...found];
}

// Scores z = ln a for small weights a, as in the book ([ln 2, 0, −ln 2]): p = a / Σa, by hand.
function logScores(rand) {
  let a;
  do a = [0, 1, 2].map(() => pick(rand, [0.5, 1, 2, 3, 4, 5, 6])); while (new Set(a).size === 1);
  const text = (w) => (w === 1 ? "0" : w < 1 ? `−ln ${1 / w}` : `ln ${w}`);
  return { z: a.map(Math.log), text: "$[" + a.map(text).join(", ") + "]$" };
}

function scores(rand, extra = {}) {
  const { z, text } = logScores(rand);
  const y = int(rand, 0, 2);
  return { values: { z, y, ...extra }, texts: { z: text, y: num(y), ...Object.fromEntries(
    Object.entries(extra).map(([name, value]) => [name, num(value)])) } };
}

// A loss ln(a/b) typed as "ln a/b" reads as (ln a)/b, and −ln(b/a) as "−ln b/a" (−ln b)/a: those slips, with
// their hints, when 1/p_y = a/b (b > 1).
function lnOverDenominator(x) {
  for (let b = 1; b <= 100; b++) {
    const a = Math.round(x * b);
    if (Math.abs(a - x * b) < 1e-9 * b) {
      return b === 1 ? [] : [[Math.log(a) / b, `\`ln ${a}/${b}\` 读作 \`(ln ${a})/${b}\`；想写 \`ln(${a}/${b})\`，请加括号。`],
                             [-Math.log(b) / a, `\`−ln ${b}/${a}\` 读作 \`−(ln ${b})/${a}\`；想写 \`−ln(${b}/${a})\`，请加括号。`]];
    }
  }
  return [];
}

// Each position counted once: "y = 1 is the second candidate" mistakes, for every candidate k other than y.
const otherTargets = (v, make, hint) => v.z.map((_, k) => k).filter((k) => k !== v.y).map((k) => [make(k), hint(k)]);

// The probability of another next symbol (the wrong column of the row), smoothed or not: one hint per value,
// naming every symbol that has it.
function otherColumns(v, n, V) {
  const next = v.symbols.indexOf(v.next), asked = `题目问的是“${v.next}”，它这一格的计数是 ${v.counts[next]}。`;
  const byValue = (value, says) => {
    const found = new Map();
    v.counts.forEach((c, j) => {
      if (j !== next) found.set(value(c), [...(found.get(value(c)) || []), `“${v.symbols[j]}”`]);
    });
    return [...found].map(([x, names]) => [x, says(names.join("或"))]);
  };
  return [...byValue((c) => (c + v.alpha) / (n + V * v.alpha), (names) => `这是下一个字为${names}的概率；${asked}`),
          ...byValue((c) => c / n, (names) => `这是下一个字为${names}、没有平滑时的概率（计数直接除以 $n$）；`
            + `${asked}每个计数还要先加 $α$。`)];
}

// A drawn problem is kept only when every named slip gives a number of its own: two slips with different hints
// (or a slip and the answer) within twice the tolerance of each other would tell the reader another slip's hint
// (or take a slip for the answer). Other columns count as slips (otherColumns).
const DRAW_TOLERANCE = 0.002;
function slipsApart(kind, v) {
  const want = list(kind.solve(v)), slips = kind.mistakes(v).map(([value, hint]) => [list(value), hint]);
  const near = (a, b) => a.every((x, k) => Math.abs(x - b[k]) <= DRAW_TOLERANCE);
  return slips.every(([a, hint], i) => !near(a, want)
    && slips.every(([b, other], j) => j <= i || other === hint || !near(a, b)));
}

// ---- each kind's answer as a formula: its value is the answer, and its parts say what a wrong answer missed ----
// A node is a number (a leaf) or an operation (+, *, /, − for "minus this", ln) over parts; `text` is how the
// book writes it ($…$ marks maths) and `name` the part it plays (分子, 分母, 残差 $r_i$), if any.
const leaf = (value, text) => ({ value, text });
const plus = (parts, text, name) => ({ op: "+", parts, text, name });
const times = (parts, text) => ({ op: "*", parts, text });
const negative = (part, text) => ({ op: "-", parts: [part], text });
const ln = (part, text) => ({ op: "ln", parts: [part], text });
const over = (top, bottom, text) => ({ op: "/", text,
  parts: [{ ...top, name: top.name || "分子" }, { ...bottom, name: bottom.name || "分母" }] });

// The value of a formula, with one change made wherever its text is written: a term or a factor left out, a sign
// turned, a fraction upside down, or a fraction's denominator left out.
function computed(node, edit = null) {
  const at = (type) => edit !== null && edit.type === type && edit.text === node.text;
  let value = node.value;
  if (node.op) {
    const cut = edit && ((edit.type === "term" && node.op === "+") || (edit.type === "factor" && node.op === "*"));
    const x = node.parts.filter((p) => !(cut && p.text === edit.text)).map((p) => computed(p, edit));
    value = node.op === "+" ? sum(x) : node.op === "*" ? x.reduce((s, v) => s * v, 1)
      : node.op === "-" ? -x[0] : node.op === "ln" ? Math.log(x[0])
      : at("flip") ? x[1] / x[0] : at("top") ? x[0] : x[0] / x[1];
  }
  return at("sign") ? -value : value;
}
const solved = (formula) => (Array.isArray(formula) ? formula.map((node) => computed(node)) : computed(formula));

// Every single change of a formula, each with what it says ("分母里 $Vα$ 少了因子 $α$").
// A part's text sits between Chinese words with a space only on a side where it is maths ($…$): "少了 $2.5$ 这一项",
// "少了加上的 $1$ 这一项".
const spaced = (text) => `${text.startsWith("$") ? " " : ""}${text}${text.endsWith("$") ? " " : ""}`;
const sentence = (text) => text.replace(/ {2,}/g, " ").trim();
function edits(root) {
  const found = new Map();
  const add = (type, text, says) => {
    if (!found.has(type + text)) found.set(type + text, { type, text, says: sentence(says) });
  };
  const inside = (where) => (where ? `${spaced(where)}里` : "");
  (function walk(node, outer) {   // `outer`: the part the node's parent plays
    const where = node.name || outer;
    add("sign", node.text, node === root ? "符号反了" : `${inside(outer)}${spaced(node.text)}的符号反了`);
    if (node.op === "/") {
      add("flip", node.text, `${inside(outer)}分子和分母颠倒了`);
      add("top", node.text, `${inside(outer)}没有除以分母${spaced(node.parts[1].text)}`);
    }
    for (const part of node.parts || []) {
      if (node.parts.filter((p) => p.text === part.text).length === 1) {
        if (node.op === "+") add("term", part.text, `${inside(where)}少了${spaced(part.text)}这一项`);
        if (node.op === "*") add("factor", part.text, `${inside(where)}${spaced(node.text)}少了因子${spaced(part.text)}`);
      }
      walk(part, where);
    }
  })(root, "");
  return [...found.values()];
}

// Every single change of any of these formulas, each once.
const editsOf = (nodes) => [...new Map(nodes.flatMap((node) => edits(node)).map((e) => [e.type + e.text, e])).values()];

// Which part a wrong answer missed, when one change of the formula gives each wrong component: "提示：分母里
// $Vα$ 少了因子 $α$。", or for a vector "提示：编号为 0 的分量：…；编号为 2 的分量：…。" ("" when no change does).
function diagnosis(formula, got, off, tolerance) {
  const nodes = [formula].flat();
  const fits = (edit, k) => {
    const value = computed(nodes[k], edit);
    return Math.abs(value - got[k]) <= tolerance && Math.abs(value - computed(nodes[k])) > tolerance;
  };
  const changes = editsOf(off.map((k) => nodes[k]));
  const said = [];
  // The change that explains the most wrong components first, so that one slip made everywhere is said once.
  for (let left = off; left.length;) {
    const [edit, ks] = changes.map((e) => [e, left.filter((k) => fits(e, k))])
      .reduce((best, next) => (next[1].length > best[1].length ? next : best), [null, []]);
    if (!edit) return "";
    said.push(ks.length === nodes.length ? edit.says : `编号为 ${ks.join("、")} 的分量：${edit.says}`);
    left = left.filter((k) => !ks.includes(k));
  }
  return `提示：${said.join("；")}。`;
}

// Softmax of z: p_k = e^{z_k} / S with S = Σ_j e^{z_j}.
const probability = (z, k, text = `$p_${k}$`) => over(leaf(Math.exp(z[k]), `$e^{z_${k}}$`),
  plus(z.map((x, j) => leaf(Math.exp(x), `$e^{z_${j}}$`)), "$S$"), text);
// The gradient of the loss: g_k = p_k − 1 at the target, p_k elsewhere.
const gradientPart = (z, y, k) => (k === y
  ? plus([probability(z, k), negative(leaf(1, "$1$"), "$−1$")], `$g_${k}$`, `$g_${k}$`)
  : probability(z, k, `$g_${k}$`));

// Some list of words has these counts: a word starts and ends with ".", so "." is a next symbol once per word;
// the words' last characters (rows other than "." and the row shown) hold the "." ends the row shown does not, and
// the words' first characters (what "." is followed by) fit in the other columns.
function wordsCanGive({ symbols, counts, targets, prev }) {
  const others = targets.filter((_, j) => j !== 0 && symbols[j] !== prev);
  return targets[0] >= 1 && targets[0] - counts[0] <= sum(others)
    && targets[0] <= sum(targets.slice(1).map((t, j) => t - counts[j + 1]));
}

const IDIOM_CHARACTERS = [..."之不一人无可有以心大天生自如而"];   // common in the idioms, as the chapter's example
const KINDS = {
  softmax: {
    percent: true,
    draw(rand) {   // z = ln a: e^z = a, so p = a / Σa is a fraction worked out on paper
      const { z, text } = logScores(rand);
      return { values: { z }, texts: { z: text } };
    },
    formula: (v) => v.z.map((_, k) => probability(v.z, k)),
    mistakes: (v) => [
      [scale(v.z, 1 / sum(v.z)), "这是直接除以分数之和：先对每个分数取指数，再除以这些指数之和。"],
      [v.z.map(Math.exp), "这些是 $e^z$，还要除以它们的和 $S$，概率加起来才是 1。"],
      [softmax(scale(v.z, -1)), "大小顺序反了：分数越高，概率越大。"],
    ],
  },
  loss: {
    draw: (rand) => scores(rand),
    formula: (v) => negative(ln(probability(v.z, v.y), `$ln p_${v.y}$`), `$−ln p_${v.y}$`),
    mistakes: (v) => {
      const p = softmax(v.z);
      return [
        [p[v.y], "这是似然 $p_y$，损失还要取 $−ln$。"],
        [Math.log(p[v.y]), "符号反了：损失是 $−ln p_y$，不会是负数。"],
        [-Math.log10(p[v.y]), "用了以 10 为底的对数；ln 是以 e 为底的自然对数。"],
        ...lnOverDenominator(1 / p[v.y]),
        ...otherTargets(v, (k) => -Math.log(p[k]),
                        (k) => `这是编号为 ${k} 的候选的 $−ln p_${k}$；编号从 0 数，$y = ${v.y}$ 是第 ${v.y + 1} 个候选。`),
      ];
    },
  },
  gradient: {
    draw: (rand) => scores(rand),
    formula: (v) => v.z.map((_, k) => gradientPart(v.z, v.y, k)),
    mistakes: (v) => {
      const p = softmax(v.z);
      return [
        [p, "忘了减去 $e_y$：真实目标那一项是 $p_y − 1$。"],
        [scale(crossEntropyGrad(v.z, v.y), -1), "符号反了：梯度是 $p − e_y$，不是 $e_y − p$。"],
        ...otherTargets(v, (k) => crossEntropyGrad(v.z, k),
                        () => `$e_y$ 的 1 放错了位置：$y = ${v.y}$ 是编号，从 0 数。`),
      ];
    },
  },
  step: {
    draw: (rand) => scores(rand, { lr: pick(rand, [0.1, 0.2, 0.5, 1]) }),
    formula: (v) => v.z.map((x, k) => plus([leaf(x, `$z_${k}$`), negative(times([leaf(v.lr, "$η$"),
      gradientPart(v.z, v.y, k)], `$ηg_${k}$`), `$−ηg_${k}$`)], `$z_${k} − ηg_${k}$`)),
    mistakes: (v) => {
      const g = crossEntropyGrad(v.z, v.y);
      return [
        [gradientStep(v.z, v.y, -v.lr), "方向反了：梯度下降沿梯度的反方向走，$z − ηg$。"],
        [minus(v.z, g), "忘了乘学习率 $η$。"],
        [scale(g, -v.lr), "这是更新量 $−ηg$，还要加到原来的分数 $z$ 上。"],
        [minus(v.z, scale(softmax(v.z), v.lr)), "梯度用错了：$g = p − e_y$，别忘了减 $e_y$。"],
      ];
    },
  },
  "mean-loss": {
    draw(rand) {
      const B = int(rand, 2, 3), T = int(rand, 3, 4);
      const lengths = Array.from({ length: B }, (_, b) => (b === 0 ? T : int(rand, 1, T - 1)));
      const losses = lengths.map((n) => Array.from({ length: T }, (_, t) => (t < n ? int(rand, 1, 8) / 2 : 0)));
      const targets = lengths.map((n) => Array.from({ length: T }, (_, t) => (t < n ? int(rand, 2, 9) : -100)));
      return { values: { losses, targets }, texts: { losses: rows(losses), targets: rows(targets) } };
    },
    formula(v) {   // the valid losses over their count N
      const valid = v.losses.flat().filter((_, i) => v.targets.flat()[i] !== -100);
      return over(plus(valid.map((x) => leaf(x, `$${num(x)}$`)), "有效位置的损失之和"),
                  leaf(valid.length, `$N = ${valid.length}$`), "平均损失");
    },
    mistakes: (v) => {
      const total = sum(v.losses.flat()), cells = v.losses.flat().length;
      const docMeans = v.losses.map((row, b) => validMean(row, v.targets[b]));
      return [
        [total / cells, "分母把被忽略的位置也算进去了：只除以有效目标的个数。"],
        [total, "这是总和，还要除以有效目标的个数 $N$。"],
        [sum(docMeans) / docMeans.length,
         "这是先在每篇里平均、再对各篇平均，短文档的字权重更大；本书的平均是每个有效位置权重相同。"],
      ];
    },
  },
  "row-gradient": {
    draw(rand) {
      const T = int(rand, 3, 4), row = int(rand, 0, 5), uses = int(rand, 2, T - 1);
      const ids = Array.from({ length: T }, () => { let i; do i = int(rand, 0, 5); while (i === row); return i; });
      let placed = 0;
      while (placed < uses) { const t = int(rand, 0, T - 1); if (ids[t] !== row) { ids[t] = row; placed++; } }
      // As exercise 3.3 asks of a test: no single position's share may equal the sum in any component, or
      // "only one share kept" (dE[ids] += dH) would count as right.
      // Nor may the answer be [0, 0], nor a share have a 0 component: leaving out any one share changes
      // every component of the sum.
      let dH, total;
      do {
        dH = ids.map(() => [int(rand, -3, 3), int(rand, -3, 3)]);
        total = dH.filter((_, t) => ids[t] === row).reduce((s, g) => s.map((x, d) => x + g[d]));
      } while (total.every((x) => x === 0)
        || dH.some((g, t) => ids[t] === row && g.some((x, d) => x === total[d] || x === 0)));
      return { values: { ids, dH, row }, texts: { ids: vector(ids), dH: rows(dH), row: num(row) } };
    },
    formula: (v) => v.dH[0].map((_, d) => plus(v.ids.flatMap((id, t) => (id === v.row ? [leaf(v.dH[t][d], `$dH[${t}]$`)]
      : [])), `$dE[${v.row}]$`)),
    mistakes: (v) => {
      const used = v.dH.filter((_, t) => v.ids[t] === v.row);
      const right = KINDS["row-gradient"].solve(v);
      return [
        ...used.map((g) => [g, "只留下了一个位置的梯度（dE[ids] += dH 就会这样）：读过这一行的每个位置的梯度都要加进来。"]),
        [scale(right, 1 / used.length), "除以了这一行被读的次数：梯度是各个位置的梯度之和，不是平均。"],
        [v.dH.reduce((s, g) => s.map((x, d) => x + g[d])), "把所有位置的梯度都加进来了：只加读过这一行的那些位置的梯度。"],
      ];
    },
  },
  "smoothed-prob": {
    percent: true,
    draw(rand) {
      const letters = threeOf(rand, [..."abcdefghijklmnopqrstuvwxyz"]);
      const symbols = [".", ...letters.sort()];   // the book's order: "." is 0, then the letters alphabetically
      let values;
      do {
        let counts;
        do counts = symbols.map(() => int(rand, 0, 6)); while (!counts.includes(0) || sum(counts) === 0);
        const zero = symbols.filter((_, j) => counts[j] === 0), seen = symbols.filter((_, j) => counts[j] > 0);
        const next = rand() < 0.5 ? pick(rand, zero) : pick(rand, seen);   // half an unseen cell, half a seen one
        values = { symbols, counts, alpha: pick(rand, [1, 0.5, 2]), prev: pick(rand, letters), next };
      } while (!slipsApart(this, values));
      return { values, texts: rowTexts(values, { counts: vector(values.counts), alpha: num(values.alpha) }) };
    },
    formula(v) {   // (C + α) / (n + Vα)
      const C = v.counts[v.symbols.indexOf(v.next)], alpha = leaf(v.alpha, "$α$");
      return over(plus([leaf(C, "计数 $C$"), alpha], "$C + α$"),
                  plus([leaf(sum(v.counts), "这一行的总数 $n$"), times([leaf(v.counts.length, "$V$"), alpha], "$Vα$")],
                       "$n + Vα$"), "$p̂$");
    },
    mistakes: (v) => {
      const n = sum(v.counts), V = v.counts.length, N = v.counts[v.symbols.indexOf(v.next)];
      // The same sum over another vocabulary: the names' 27 symbols, or the listed ones without “.”.
      const otherV = (W, hint) => (W !== V ? [[(N + v.alpha) / (n + W * v.alpha), hint]] : []);
      return [
        [N / n, "没有平滑：每个计数先加 $α$，再归一化。"],
        [(N + v.alpha) / n, "分母也要加：一行的每一格都加了 $α$，分母是这一行的总数加 $Vα$。"],
        [(N + v.alpha) / (n + v.alpha), "分母要加 $V$ 个 $α$（这一行每格一个），不是一个。"],
        ...(v.alpha !== 1 ? [[(N + 1) / (n + V), `每格加的是 $α = ${num(v.alpha)}$，不是 1。`]] : []),
        ...otherV(27, `分母按名字数据的词表算了（$V = 27$）：这道题的词表只有题中的 ${V} 个符号，$V = ${V}$。`),
        ...otherV(V - 1, `分母少算了一格：“.” 也在词表里，$V = ${V}$，分母是这一行的总数加 $${V}α$。`),
        ...otherColumns(v, n, V),
      ];
    },
  },
  "interpolated-prob": {
    percent: true,
    draw(rand) {
      const letters = threeOf(rand, IDIOM_CHARACTERS);
      const symbols = [".", ...letters];
      let counts;
      do counts = symbols.map(() => int(rand, 0, 4)); while (!counts.includes(0) || sum(counts) === 0);
      // Every slip must land apart from the answer (slipsApart): forgetting the +1 of the unigram, say, gives the
      // answer itself when N = V Σ_i C_iy.
      const zero = symbols.filter((_, j) => counts[j] === 0);
      let targets, next, gamma, values;
      do {
        targets = counts.map((c) => c + int(rand, 0, 6));
        next = rand() < 0.5 ? pick(rand, zero) : pick(rand, symbols);
        gamma = pick(rand, [0.5, 0.8, 0.9]);
        const prev = pick(rand, letters);
        // A character of an idiom is once the previous character and once the next: its count as the next one is
        // its row's total.
        targets[symbols.indexOf(prev)] = sum(counts);
        values = { symbols, counts, targets, gamma, prev, next };
      } while (!wordsCanGive(values) || !slipsApart(this, values));
      return { values, texts: rowTexts(values, { N: String(sum(targets)), counts: vector(counts),
                                                  targets: vector(targets), gamma: num(gamma) }) };
    },
    formula(v) {   // γ C/n + (1 − γ)(Σ_i C_iy + 1)/(N + V)
      const j = v.symbols.indexOf(v.next), gamma = leaf(v.gamma, "$γ$");
      return plus([
        times([gamma, over(leaf(v.counts[j], "计数 $C$"), leaf(sum(v.counts), "这一行的总数 $n$"), "$C/n$")],
              "$γ C/n$"),
        times([plus([leaf(1, "$1$"), negative(gamma, "$−γ$")], "$1 − γ$", "单字频率的权重"),
               over(plus([leaf(v.targets[j], "$Σ_i C_{iy}$"), leaf(1, "加上的 $1$")], "$Σ_i C_{iy} + 1$",
                         "$p̂(y)$ 的分子"),
                    plus([leaf(sum(v.targets), "$N$"), leaf(v.counts.length, "$V$")], "$N + V$", "$p̂(y)$ 的分母"),
                    "$p̂(y)$")],
              "$(1 − γ) p̂(y)$"),
      ], "$p$");
    },
    mistakes: (v) => {
      const j = v.symbols.indexOf(v.next), n = sum(v.counts), N = sum(v.targets), V = v.counts.length;
      const C = v.counts[j], t = v.targets[j], g = v.gamma;
      return [
        [g * C / n, "只算了计数那一项：还要加上 $(1 − γ)$ 乘单字频率。"],
        [(C + 1) / (n + V), "这是加一平滑的 bigram 概率 $(C + 1)/(n + V)$，不是插值：$p = γ C/n + (1 − γ) p̂(y)$。"],
        [g * C / n + (1 - g) * t / N, "单字频率没有加一：$p̂(y) = (Σ_i C_{iy} + 1)/(N + V)$。"],
        [t / N, "这是没有加一的单字频率 $Σ_i C_{iy}/N$，也还没有插值。"],
        [g * C / n + (1 - g) * (t + 1) / N, "单字频率的分母要加 $V$：每个次数都加了一，分母是 $N + V$。"],
        [g * (C + 1) / (n + V) + (1 - g) * (t + 1) / (N + V), "计数那一项不加一：插值里的计数概率就是 $C/n$，"
          + "只有单字频率加一。"],
        // γ = 0.5 gives both terms the same weight: swapped, they give the answer itself
        ...(g !== 0.5 ? [[(1 - g) * C / n + g * (t + 1) / (N + V),
                          "$γ$ 乘错了项：$γ$ 是计数概率的权重，$1 − γ$ 才是单字频率的。"]] : []),
        [g * C / n + (1 - g) * (C + 1) / (n + V), "单字频率要用整个训练集里作后一个字的次数，不是这一行的计数。"],
        // the right formula on the wrong column of the row
        ...v.symbols.flatMap((s, k) => (k === j ? [] : [[g * v.counts[k] / n + (1 - g) * (v.targets[k] + 1) / (N + V),
          `这是下一个字为“${s}”的概率：题目问的是“${v.next}”。`]])),
      ];
    },
  },
  "mse-gradient": {
    draw(rand) {   // again while the gradient is [0, 0] (every residual 0, or X^T r = 0)
      let values;
      do {
        const X = [0, 1, 2].map(() => [int(rand, 0, 10), int(rand, 0, 10)]);
        const w = [int(rand, 1, 5), int(rand, 1, 5)], b = int(rand, 0, 20);
        const y = linear(X, w.map((x) => [x]), [b]).map((row) => row[0] + int(rand, -3, 3));
        values = { X, w, b, y };
      } while (this.solve(values).every((g) => Math.abs(g) < 1e-9));
      return { values, texts: { X: rows(values.X), w: vector(values.w), b: num(values.b), y: vector(values.y) } };
    },
    formula: (v) => v.w.map((_, d) => times([leaf(2 / v.X.length, "$2/n$"), plus(v.X.map((x, i) => times([
      leaf(x[d], `$X_{${i},${d}}$`), plus([leaf(sum(x.map((xj, j) => xj * v.w[j])), `$x_${i}·w$`), leaf(v.b, "$b$"),
        negative(leaf(v.y[i], `$y_${i}$`), `$−y_${i}$`)], `$r_${i}$`, "残差 $r_i$")], `$X_{${i},${d}} r_${i}$`)),
      `$Σ_i X_{i,${d}} r_i$`)], `$∂ℓ/∂w_${d}$`)),
    mistakes(v) {
      const g = this.solve(v), n = v.X.length;
      return [
        [scale(g, 0.5), "这是 $1/(2n) · Σ_i r_i^2$ 的梯度：本书的 $ℓ$ 前面是 $1/n$，求导留下一个 2。"],
        [scale(g, n), "忘了除以 $n$：这是求和损失 $Σ_i r_i^2$ 的梯度。"],
        [scale(g, -1), "符号反了：残差是预测减目标，$r = ŷ − y$。"],
        [scale(g, n / 2), "少了 $2/n$：$ℓ = (1/n) Σ_i r_i^2$，梯度是 $(2/n) X^𝖳 r$。"],
      ];
    },
  },
};

// Each kind's answer is its formula's value: computed once on this side (labcode computes it in Python).
for (const kind of Object.values(KINDS)) kind.solve = (v) => solved(kind.formula(v));

// ---- judging an answer ----
// |a − b| ≤ tol for every component (with room for the rounding of tol itself: 1.99 is 10 × 0.001 from 2).
const within = (a, b, tol) => a.length === b.length && a.every((v, k) => Math.abs(v - b[k]) <= tol * (1 + 1e-9));
// Four decimals say v exactly (up to the rounding of the arithmetic that gave v: 0.5 · 4/25 is 0.08000000000000002).
const fourPlaces = (v) => Math.abs(Number(fmt(v, 4)) - v) <= 1e-12 * Math.max(1, Math.abs(v));
// "是 [4, 1]" when 4 decimals say it exactly (fewer printed), "约为 [0.0900, 0.2447, 0.6652]" when they round.
const shown = (x) => {
  const exact = list(x).every(fourPlaces);
  const text = list(x).map((v) => (exact ? String(v) : fmt(v, 4)).replace("-", "−"));
  return (exact ? "是 " : "约为 ") + (Array.isArray(x) ? `[${text.join(", ")}]` : text[0]);
};

function judge(kind, values, text, tolerance) {
  const answer = kind.solve(values), want = list(answer);
  if (!kind.percent && ascii(text).includes("%")) {
    return { ok: false, message: "这里的答案不是概率，不写成百分数：去掉 %，写出这个数本身。" };
  }
  if (!normalise(text)) return { ok: false, message: "还没有写答案。" };
  let got;
  try {
    got = readAnswer(text, want.length);
  } catch (error) {   // whatever the text, a verdict: the reader's own message, or that it could not be read
    return { ok: false, message: `没读懂：${error instanceof ReadError ? error.message : "这个算式读不了，请换一种写法"}。` };
  }
  if (got.length !== want.length) {
    const example = ["1/3", "-1/2", "0.25", "2"];
    return { ok: false, message: want.length === 1 ? `这里要一个数，读到的是 ${got.length} 个。`
      : `答案应有 ${want.length} 个分量，读到的是 ${got.length} 个：分量之间用逗号隔开，例如 \``
        + `[${want.map((_, k) => example[k % example.length]).join(", ")}]\`。` };
  }
  if (within(got, want, tolerance)) return { ok: true, message: `正确！答案${shown(answer)}。` };
  const off = want.map((_, k) => k).filter((k) => Math.abs(got[k] - want[k]) > tolerance);
  const near = within(got, want, 10 * tolerance);
  let message = want.length === 1 ? "不对。"
    : off.length < want.length ? `不对：编号为 ${off.join("、")} 的分量不对，其余分量都对。`
    : near ? "不对：每个分量都差了一点。" : "不对：每个分量都不对。";
  // Every named slip that gives this number (the book's own numbers may let two agree: then both are said).
  const slips = [...new Set(kind.mistakes(values).map(([value, hint]) => [list(value), hint])
    .filter(([value]) => value.every(Number.isFinite) && within(got, value, tolerance) && !within(value, want, tolerance))
    .map(([, hint]) => hint))];
  const why = slips.length === 1 ? `提示：${slips[0]}`
    : slips.length ? `提示：${slips.length} 种错误都得到这个数。${slips.map((h, k) => `（${k + 1}）${h}`).join("")}`
    : diagnosis(kind.formula(values), got, off, tolerance);
  if (why) message += why;
  else if (near) {
    // Rounding explains a near miss only when the answer needs more decimals than four: 0.21 for 1/5 is a slip.
    message += want.every(fourPlaces)
      ? "已经很接近了。这个答案能精确写出来（比如写成分数），不需要取近似值；差的这一点多半出在算术上，再检查一遍。"
      : `已经很接近了：中间步骤和答案都多保留几位小数（至少 ${Math.ceil(-Math.log10(tolerance))} 位）。`;
  }
  return { ok: false, message };
}

// ---- variants: a drawn problem is named by its box's label and a four-digit ID (scripts/box_variants.py) ----
function fnv1a(text) {   // FNV-1a over the code points of the label
  let h = 0x811c9dc5;
  for (const c of text) h = Math.imul(h ^ c.codePointAt(0), 0x01000193) >>> 0;
  return h;
}
const seed = (label, id) => (fnv1a(label) ^ Math.imul(id, 0x9e3779b1)) >>> 0;
const idText = (id) => id.toString(16).toUpperCase().padStart(4, "0");
// The k-th "换一组数" of a box: k·0x9E37 (odd) plus the label's hash, modulo 2^16, meets every ID once in 65,536.
const nthVariant = (label, k) => (Math.imul(k, 0x9e37) + fnv1a(label)) & 0xffff;
// "变体 7F3A" (or "#7F3A", "variant 7f3a") typed into a box, or "#<label>:7F3A" in the page's address.
const ASKED = /^\s*(?:变体|variant|#)\s*:?\s*([0-9a-f]{4})\s*$/i;
const asked = (text) => { const m = ASKED.exec(ascii(text)); return m ? parseInt(m[1], 16) : null; };

// The problem a box of kind `kind` labelled `label` shows for an ID (a number in 0…0xFFFF, or its four hex
// digits): its values, its texts and the answer maths.js gives.
function variant(kind, label, id) {
  const number = typeof id === "number" ? id : parseInt(id, 16);
  const drawn = KINDS[kind].draw(mulberry32(seed(label, number)));
  return { id: idText(number), ...drawn, answer: KINDS[kind].solve(drawn.values) };
}

const escape = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const fill = (template, texts) => template.replace(/\{(\w+)\}/g, (_, name) => texts[name]);
// Maths as the book sets it: variables italic (p, dE, η), function names upright (ln, exp).
const UPRIGHT = new Set(["ln", "log", "exp", "sqrt"]);
const scripts = (text) => text.replace(/([_^])(\{[^}]*\}|.)/g, (_, mark, x) => {   // e^{z_0}: z_0 inside <sup>
  const tag = mark === "_" ? "sub" : "sup";
  return `<${tag}>${scripts(x.replace(/^\{|\}$/g, ""))}</${tag}>`;
});
const maths = (part) => scripts(escape(part))
  .replace(/(<[^>]*>|&\w+;)|([A-Za-zα-ωŷ][A-Za-zα-ωŷ\u0300-\u036f]*)/g,
           (_, tag, word) => tag || (UPRIGHT.has(word) ? word : `<i>${word}</i>`));
// Maths ($…$) in <span class="ab-math">, _i and ^2 as <sub>, <sup>; what a reader types (`…`) in <code>.
const toHtml = (text) => text.split("$").map((part, k) => (k % 2 ? `<span class="ab-math">${maths(part)}</span>`
  : part.split("`").map((bit, j) => (j % 2 ? `<code class="ab-typed">${escape(bit)}</code>` : escape(bit))).join("")))
  .join("");

// The title of the answer fold that follows a box on the site (_ext/answer_folds.py; every box has one), or null.
// The fold works the book's numbers: with a variant shown, its title says so.
function foldTitle(root) {
  const fold = [...document.querySelectorAll("details.answer-fold summary")]
    .find((node) => root.compareDocumentPosition(node) & Node.DOCUMENT_POSITION_FOLLOWING);
  const title = fold && (fold.querySelector("span") || fold);
  return title ? { element: title, text: title.textContent } : null;
}
const BOOK_NUMBERS = "（书中的数）";

// `root` holds the box's parts (.ab-question, .ab-input, …), `spec` its kind and the book's numbers
// (labcode.practice.problems.Problem.spec), `label` seeds its new numbers; `progress` counts solved boxes;
// `fold` is the title of the answer fold after the box (foldTitle), if any.
function setUp(root, spec, label, progress, fold = null) {
  const kind = KINDS[spec.kind];
  const part = (name) => root.querySelector(`.ab-${name}`);
  const input = part("input"), verdict = part("verdict");
  const book = { values: spec.values, texts: spec.texts };
  let variant = null, presses = 0, current = book;

  let said = "";
  // $…$ marks maths; a repeated verdict gets a zero-width space, to be announced again. The solved count, shown
  // on its own line below, is in the verdict for screen readers only.
  const say = (message, count = "") => {
    const again = said === message + count;
    said = again ? "" : message + count;
    verdict.innerHTML = toHtml(message) + (count && `<span class="ab-hidden">${escape(count)}</span>`)
      + (again ? "\u200b" : "");
  };
  const show = () => {
    part("question").innerHTML = toHtml(fill(spec.question, current.texts));
    part("label").innerHTML = toHtml(fill(spec.label, current.texts));
    const set = part("set");
    set.textContent = variant === null ? BOOK_NUMBERS : "（";
    if (fold) fold.element.textContent = fold.text + (variant === null ? "" : BOOK_NUMBERS);
    if (variant !== null) {   // on the site, a link that opens this very problem, to share or to come back to
      const name = make(progress.links ? "a" : "span", "ab-variant", set, `变体 ${variant}`);
      if (progress.links) name.href = `#${label}:${variant}`;
      set.append("）");
    }
    part("book").hidden = variant === null;
  };
  const turnTo = (id, message = `这是变体 ${idText(id)} 的数：先在纸上自己算，再写下答案、点“核对”。`) => {
    variant = id === null ? null : idText(id);
    current = id === null ? book : kind.draw(mulberry32(seed(label, id)));
    show();
    input.value = "";
    input.removeAttribute("aria-invalid");
    say(message);
  };
  part("form").addEventListener("submit", (event) => {
    event.preventDefault();
    const id = asked(input.value);
    if (id !== null) return turnTo(id);
    const result = judge(kind, current.values, input.value, spec.tolerance);
    input.setAttribute("aria-invalid", result.ok ? "false" : "true");
    if (result.ok) progress.solve(label);
    const count = result.ok ? progress.text(spec.scope) : "";
    say(result.message, count && `${count}。`);
  });
  part("new").addEventListener("click", () => {
    turnTo(nthVariant(label, ++presses), "换了一组新数：先在纸上自己算，再写下答案、点“核对”。");
    input.focus();
  });
  part("book").addEventListener("click", () => {   // and "换一组数" starts again from the first new set
    presses = 0;
    turnTo(null, "回到了书中的数。");
    input.focus();
  });
  // For the tests and the curious: which numbers are shown, and the answer maths.js gives for them.
  root.answerBox = { get variant() { return variant; }, get values() { return current.values; },
                     get texts() { return current.texts; },
                     get answer() { return kind.solve(current.values); }, open: (id) => turnTo(parseInt(id, 16)) };
  show();
  part("controls").hidden = false;
  progress.show();
}

// ---- the box's HTML: one function for the site (rendered at build time in Node) and the notebook's widget ----
const attribute = (text) => escape(text).replace(/"/g, "&quot;");

// `spec` is the box's kind and the book's numbers (labcode.practice.problems.Problem.spec), `id` its element id.
// On the site (`site`), the root also carries the spec for the page script and a line for the solved count; the
// controls stay hidden until a script sets them up, so a reader without scripts (or a printout) sees the question.
export function markup(spec, id, site = false) {
  const at = attribute(id);
  return `<div class="answer-box" id="${at}" role="group" aria-labelledby="${at}-title"`
    + `${site ? ` data-answer-box="${attribute(JSON.stringify(spec))}"` : ""}>\n`
    + `<p class="ab-title" id="${at}-title"><strong>${escape(spec.title)}</strong><span class="ab-set"></span></p>\n`
    + `<p class="ab-question" id="${at}-question">${toHtml(fill(spec.question, spec.texts))}</p>\n`
    + '<div class="ab-controls" hidden>\n<form class="ab-form">'
    + `<label class="ab-label" for="${at}-input">${toHtml(fill(spec.label, spec.texts))}</label>`
    + `<input class="ab-input" id="${at}-input" type="text" autocomplete="off" autocapitalize="off" `
    + `spellcheck="false" aria-describedby="${at}-question ${at}-help">`
    + '<span class="ab-buttons"><button type="submit" class="ab-check">核对</button>'
    + '<button type="button" class="ab-new">换一组数</button>'
    + '<button type="button" class="ab-book" hidden>回到书中的数</button></span></form>\n'
    + `<p class="ab-help" id="${at}-help">${toHtml(spec.help)}</p>\n`
    + '<p class="ab-verdict" role="status" aria-live="polite"></p>\n'
    + `${site ? '<p class="ab-progress"></p>\n' : ""}</div>\n</div>\n`;
}

// ---- in a running notebook: the anywidget ----
// Without the solved count: each box is a widget of its own, so no box knows how many of the chapter's boxes
// were solved.
const NO_PROGRESS = { text: () => "", solve() {}, show() {}, links: false };
let views = 0;   // element ids stay unique when a box is shown twice

function render({ model, el }) {
  const spec = model.get("spec"), label = model.get("label");
  el.innerHTML = markup(spec, `${label}-view${++views}`);
  const root = el.firstElementChild;
  setUp(root, spec, label, NO_PROGRESS);
  keepControlKeys(root);   // Enter checks the answer instead of running the cell
}

export default { render };

// ---- on the site: every box of the page, with the solved count ----
export function startPage() {
  const STORE = "lc-answer-boxes:" + location.pathname;
  // Storage may be switched off (or full): then the count lasts for this visit.
  const stored = (action, fallback) => { try { return action(); } catch { return fallback; } };
  const start = () => {
    const roots = [...document.querySelectorAll(".answer-box[data-answer-box]")];
    // Storage is never trusted: only the labels of this page's boxes are kept from it (junk is dropped, and so
    // never written back).
    const kept = stored(() => JSON.parse(localStorage.getItem(STORE)), null);
    const solved = new Set(roots.map((r) => r.id).filter((id) => Array.isArray(kept) && kept.includes(id)));
    const progress = {
      links: true,
      text: (scope) => `${scope}已完成 ${roots.filter((r) => solved.has(r.id)).length}/${roots.length}`,
      solve(label) {
        solved.add(label);
        stored(() => localStorage.setItem(STORE, JSON.stringify([...solved])));
        this.show();
      },
      show() {
        for (const root of roots) {
          root.querySelector(".ab-progress").textContent = progress.text(JSON.parse(root.dataset.answerBox).scope);
        }
      },
    };
    roots.forEach((root) => setUp(root, JSON.parse(root.dataset.answerBox), root.id, progress, foldTitle(root)));
    // "#ch2-ab-gradient:7F3A" opens that box at that variant (a link a reader shares, or an instructor gives).
    const follow = () => {
      const [, id, wanted] = /^#([a-z][a-z0-9-]*):([0-9a-f]{4})$/i.exec(location.hash) || [];
      const root = id && roots.find((r) => r.id === id);
      if (!root) return;
      root.answerBox.open(wanted);
      root.scrollIntoView();
    };
    follow();
    window.addEventListener("hashchange", follow);
  };
  // The kinds, the reader and the judge of answers, for the page's tests and the curious (nothing on the page
  // needs them).
  window.labAnswerBoxes = { kinds: KINDS, read: readAnswer, variant, nthVariant, markup, judge: (name, values, text, tolerance) =>
    judge(KINDS[name], values, text, tolerance),
    // Each single change of a kind's formula, made in every component: the answer it gives and what it says.
    slips: (name, values) => {
      const nodes = [KINDS[name].formula(values)].flat();
      return editsOf(nodes).map((e) => [nodes.map((node) => computed(node, e)), e.says]);
    } };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
}
