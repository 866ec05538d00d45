// The answer boxes' page script (labcode/widgets/static/answer_box.page.js, bundled by web/build_widgets.mjs) in
// Node with no page around it: the instructor's tools draw and judge with the page's own code, so paper and page
// never differ (scripts/box_variants.py, scripts/grade_worksheets.py; the tests require it as a module).
// Run as a script, it reads one JSON list of requests per line on stdin and writes, per line, the JSON list of their
// answers on stdout, until stdin closes (one process serves a whole run of the worksheets):
//   ["draw", kind, label, variant ID]                     → {id, values, texts, answer}
//   ["judge", kind, label, variant ID, typed, tolerance]  → {ok, message, answer}
const path = require("node:path");

globalThis.window = globalThis;
globalThis.document = { readyState: "complete", querySelectorAll: () => [] };
globalThis.location = { pathname: "/worksheet.html", hash: "" };
globalThis.addEventListener = () => {};
require(path.join(__dirname, "..", "labcode", "widgets", "static", "answer_box.page.js"));
const boxes = globalThis.labAnswerBoxes;

function answer([what, kind, label, id, text, tolerance]) {
  const drawn = boxes.variant(kind, label, id);
  if (what === "draw") return drawn;
  if (what === "judge") return { ...boxes.judge(kind, drawn.values, text, tolerance), answer: drawn.answer };
  throw new Error(`unknown request ${JSON.stringify(what)}: "draw" or "judge"`);
}

if (require.main === module) {
  require("node:readline").createInterface({ input: process.stdin })
    .on("line", (line) => process.stdout.write(JSON.stringify(JSON.parse(line).map(answer)) + "\n"));
} else {
  module.exports = boxes;
}
