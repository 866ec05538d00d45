// Renders TeX formulas to HTML at build time, so a page needs no maths script and no maths font.
//
// stdin:  {"pages": [[[tex, display], ...], ...]}
// stdout: {"css": "...", "pages": [{"defs": "...", "html": ["...", ...], "errors": [[index, message], ...]}]}
//
// MathJax 3.2.2 (TeX input, the packages its browser bundle has or loads by itself) with SVG output: glyphs
// are paths, drawn once per page in a hidden <svg> ("defs") and used by reference; each formula also carries
// MathML for screen readers. (Why not KaTeX or MathJax in the browser: CONTRIBUTING.md, "Light pages".)
"use strict";

function readStdin() {
  return new Promise((resolve) => {
    const chunks = [];
    process.stdin.on("data", (c) => chunks.push(c));
    process.stdin.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
  });
}

// The packages of MathJax's tex-chtml bundle (base, ams, newcommand, configmacros) and those it loads
// by itself when a formula uses one of their macros (its "autoload" list).
const TEX_PACKAGES = [
  "base", "ams", "newcommand", "configmacros", "action", "amscd", "bbox", "boldsymbol", "braket",
  "bussproofs", "cancel", "cases", "centernot", "color", "empheq", "enclose", "extpfeil", "gensymb",
  "html", "mathtools", "mhchem", "unicode", "upgreek", "verb",
];

function mathjaxRenderer() {
  const { mathjax } = require("mathjax-full/js/mathjax.js");
  const { TeX } = require("mathjax-full/js/input/tex.js");
  const { SVG } = require("mathjax-full/js/output/svg.js");
  const { liteAdaptor } = require("mathjax-full/js/adaptors/liteAdaptor.js");
  const { RegisterHTMLHandler } = require("mathjax-full/js/handlers/html.js");
  const { AssistiveMmlHandler } = require("mathjax-full/js/a11y/assistive-mml.js");
  require("mathjax-full/js/input/tex/AllPackages.js");

  const adaptor = liteAdaptor();
  AssistiveMmlHandler(RegisterHTMLHandler(adaptor));
  const tex = new TeX({
    packages: TEX_PACKAGES,
    // A formula MathJax cannot read is an error of the build, not red text on the page.
    formatError: (jax, err) => { throw err; },
  });
  const svg = new SVG({ fontCache: "global" });
  const doc = mathjax.document("", { InputJax: tex, OutputJax: svg });
  return {
    css: adaptor.textContent(svg.styleSheet(doc)),
    page(formulas) {
      svg.clearFontCache();
      const html = [];
      const errors = [];
      formulas.forEach(([source, display], i) => {
        try {
          const node = doc.convert(source, { display });
          html.push(adaptor.outerHTML(node));
        } catch (err) {
          html.push("");
          errors.push([i, String(err.message || err)]);
        }
      });
      const defs = adaptor.outerHTML(svg.pageElements(doc));
      return { defs, html, errors };
    },
  };
}

async function main() {
  const request = JSON.parse(await readStdin());
  const renderer = mathjaxRenderer();
  const pages = request.pages.map((formulas) => renderer.page(formulas));
  process.stdout.write(JSON.stringify({ css: renderer.css, pages }));
}

main();
