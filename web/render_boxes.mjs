// The answer boxes' HTML for the site, rendered while it is built (_ext/answer_box) by the module the page and the
// notebook widget run (labcode/widgets/answer_box.js, bundled by web/build_widgets.mjs): the box is written in one
// place. Reads [[spec, id], …] as JSON on stdin, writes [html, …] as JSON on stdout.
import { markup } from "../labcode/widgets/static/answer_box.mjs";

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  process.stdout.write(JSON.stringify(JSON.parse(input).map(([spec, id]) => markup(spec, id, true))));
});
