// Judges answers typed from the worksheets (scripts/grade_worksheets.py) with the answer boxes' own reader, judge
// and draws: the site's page script (labcode/widgets/static/answer_box.page.js, bundled by web/build_widgets.mjs)
// run in Node with no page around it, so paper and page are judged by one piece of code.
// Reads [[kind, label, variant ID, typed text, tolerance], …] as JSON on stdin; writes [{ok, message, answer}, …]
// as JSON on stdout, `answer` being what the page computes for that variant.
const path = require("node:path");

globalThis.window = globalThis;
globalThis.document = { readyState: "complete", querySelectorAll: () => [] };
globalThis.location = { pathname: "/worksheet.html", hash: "" };
globalThis.addEventListener = () => {};
require(path.join(__dirname, "..", "labcode", "widgets", "static", "answer_box.page.js"));
const boxes = globalThis.labAnswerBoxes;

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const verdicts = JSON.parse(input).map(([kind, label, id, text, tolerance]) => {
    const drawn = boxes.variant(kind, label, id);
    return { ...boxes.judge(kind, drawn.values, text, tolerance), answer: drawn.answer };
  });
  process.stdout.write(JSON.stringify(verdicts));
});
