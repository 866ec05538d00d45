// Bundles the course widgets' ES modules (labcode/widgets/*.js) with esbuild, as anywidget's guide recommends:
// for each widget (a .js beside a .py of the same name), one ES module holding it and the shared modules it
// imports, its anywidget `_esm` (name.mjs); and the answer boxes' page script (answer_box.page.js), a classic
// script that sets up every box of a site's page, from file:// too. `make assets` writes them into
// labcode/widgets/static/, which the wheel carries. Usage: node web/build_widgets.mjs [out folder]
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const widgets = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "labcode", "widgets");
const out = path.resolve(process.argv[2] || path.join(widgets, "static"));
const entries = readdirSync(widgets).filter((f) => f.endsWith(".js") && existsSync(path.join(widgets, f.replace(/js$/, "py"))))
  .map((f) => path.join(widgets, f));
// Chinese texts stay readable (not \u escapes); no minifying: a reader of the page can read its script.
const common = { bundle: true, charset: "utf8", target: "es2022", logLevel: "warning" };

await build({ ...common, entryPoints: entries, format: "esm", outdir: out, outExtension: { ".js": ".mjs" } });
await build({ ...common, format: "iife", outfile: path.join(out, "answer_box.page.js"),
              stdin: { contents: 'import { startPage } from "./answer_box.js";\nstartPage();\n', resolveDir: widgets,
                       sourcefile: "answer_box.page.js" } });
