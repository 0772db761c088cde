// Tokenizes a .qspec file with the VS Code extension's TextMate grammar through the real engine
// VS Code uses (vscode-textmate + vscode-oniguruma) and prints one line per token:
//   LINE:COL 'TEXT' scope scope ...      (the root scope source.qspec left out; blanks skipped)
//
//   node textmate-dump.js FILE
'use strict';
const path = require('path');
const fs = require('fs');
const modules = path.join(__dirname, '..', '..', 'editors', 'vscode', 'node_modules');
const vsctm = require(path.join(modules, 'vscode-textmate'));
const oniguruma = require(path.join(modules, 'vscode-oniguruma'));
const grammarPath = path.join(__dirname, '..', '..', 'editors', 'vscode', 'syntaxes', 'qspec.tmLanguage.json');

async function main() {
  const wasm = fs.readFileSync(path.join(modules, 'vscode-oniguruma', 'release', 'onig.wasm')).buffer;
  await oniguruma.loadWASM(wasm);
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (s) => new oniguruma.OnigString(s),
    }),
    loadGrammar: async (scope) =>
      scope === 'source.qspec' ? vsctm.parseRawGrammar(fs.readFileSync(grammarPath, 'utf8'), grammarPath) : null,
  });
  const grammar = await registry.loadGrammar('source.qspec');
  const lines = fs.readFileSync(process.argv[2], 'utf8').split('\n');
  let state = vsctm.INITIAL;
  lines.forEach((line, i) => {
    const r = grammar.tokenizeLine(line, state);
    for (const t of r.tokens) {
      const text = line.slice(t.startIndex, t.endIndex);
      if (!text.trim())
        continue;
      const scopes = t.scopes.filter((s) => s !== 'source.qspec');
      console.log(`${i + 1}:${t.startIndex + 1} '${text}' ${scopes.join(' ')}`);
    }
    state = r.ruleStack;
  });
}

main().catch((e) => {
  console.error(e.stack || String(e));
  process.exit(1);
});
