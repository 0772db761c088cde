// Drives qspec-lsp with a real LSP client library (vscode-languageserver-protocol, the protocol
// layer of vscode-languageclient) the way an editor does: open a spec, type a conflicting
// override, read the diagnostic and its related location, ask for the quick fix, hover,
// complete a module name, go to the inventory, list the symbols, format (twice: the second
// time changes nothing), shut down. Prints one line per answer for FileCheck and exits non-zero
// when an answer is missing or wrong.
//
//   node lsp-client.js QSPEC_LSP SPEC
'use strict';
const path = require('path');
const fs = require('fs');
const { spawn } = require('child_process');
const modules = path.join(__dirname, '..', '..', 'editors', 'vscode', 'node_modules');
const lsp = require(path.join(modules, 'vscode-languageserver-protocol', 'node'));

const [server, specPath] = process.argv.slice(2);
const uri = 'file://' + path.resolve(specPath);
const startText = fs.readFileSync(specPath, 'utf8');

function fail(msg) {
  console.log('FAIL: ' + msg);
  process.exit(1);
}
function check(cond, msg) {
  if (!cond)
    fail(msg);
}
const where = (r) => `${r.start.line + 1}:${r.start.character + 1}`;

const child = spawn(server, [], { stdio: ['pipe', 'pipe', 'inherit'] });
const conn = lsp.createProtocolConnection(new lsp.StreamMessageReader(child.stdout),
                                          new lsp.StreamMessageWriter(child.stdin));
let waiting = []; // {version, accept, resolve}
conn.onNotification(lsp.PublishDiagnosticsNotification.type, (p) => {
  const w = waiting.find((x) => x.version === p.version && x.accept(p.diagnostics));
  if (w) {
    waiting = waiting.filter((x) => x !== w);
    w.resolve(p.diagnostics);
  }
});
conn.listen();
// The first diagnostics published for `version` that `accept` takes.
const diagnosticsOf = (version, accept = () => true) =>
  new Promise((resolve) => waiting.push({ version, accept, resolve }));
const printDiags = (version, diags) => {
  for (const d of diags) {
    console.log(`diagnostic v${version}: ${where(d.range)} ${d.code} ${d.message}`);
    for (const r of d.relatedInformation || [])
      console.log(`  related: ${path.basename(r.location.uri)}:${where(r.location.range)} ${r.message}`);
  }
};
const pos = (text, needle, delta = 0) => {
  const at = text.indexOf(needle);
  check(at >= 0, 'no ' + needle);
  const before = text.slice(0, at + delta).split('\n');
  return { line: before.length - 1, character: before[before.length - 1].length };
};

async function main() {
  const init = await conn.sendRequest(lsp.InitializeRequest.type,
    { processId: process.pid, rootUri: null, capabilities: {}, workspaceFolders: null });
  console.log('server: ' + init.serverInfo.name);
  conn.sendNotification(lsp.InitializedNotification.type, {});

  const opened = diagnosticsOf(1);
  conn.sendNotification(lsp.DidOpenTextDocumentNotification.type,
    { textDocument: { uri, languageId: 'qspec', version: 1, text: startText } });
  const d1 = await opened;
  printDiags(1, d1);

  // Type a second name override of the same priority that gives layer 1's down_proj float.
  const conflicting = startText + 'override name "model.layers.1.mlp.*" { tier float }\n';
  const changed = diagnosticsOf(2);
  conn.sendNotification(lsp.DidChangeTextDocumentNotification.type,
    { textDocument: { uri, version: 2 }, contentChanges: [{ text: conflicting }] });
  const d2 = await changed;
  printDiags(2, d2);
  const conflict = d2.find((d) => d.code === 'spec-override-conflict');
  check(conflict && (conflict.relatedInformation || []).length > 0, 'conflict without its other location');

  const dup = d2.find((d) => d.code === 'spec-duplicate-protect');
  check(dup, 'no duplicate-protect finding');
  const actions = await conn.sendRequest(lsp.CodeActionRequest.type,
    { textDocument: { uri }, range: dup.range, context: { diagnostics: [dup] } });
  for (const a of actions)
    for (const e of a.edit.changes[uri])
      console.log(`quickfix: ${a.kind} ${where(e.range)}-${e.range.end.line + 1}:${e.range.end.character + 1} ${JSON.stringify(e.newText)}`);
  check(actions.length > 0, 'no quick fix');

  const h = await conn.sendRequest(lsp.HoverRequest.type,
    { textDocument: { uri }, position: pos(conflicting, '"model.layers.*.mlp.down_proj"', 3) });
  check(h, 'no hover on a pattern');
  console.log('hover pattern: ' + h.contents.value.split('\n').filter((l) => l).join(' | '));
  const hm = await conn.sendRequest(lsp.HoverRequest.type,
    { textDocument: { uri }, position: pos(conflicting, '"lm_head"', 2) });
  check(hm && hm.contents.value.includes('lm_head'), 'no hover on a module');
  console.log('hover module: ' + hm.contents.value.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('```')).join(' | '));

  // The server's own request, for `qcc --explain` in an editor command.
  const ex = await conn.sendRequest('qspec/explain', { textDocument: { uri }, module: 'model.layers.1.mlp.down_proj' });
  console.log('explain: ' + ex.text.split('\n').slice(0, 5).map((l) => l.trim()).join(' | '));
  const missing = await conn.sendRequest('qspec/explain', { textDocument: { uri }, module: 'no.such' }).then(
    () => 'answered', (e) => 'error ' + e.code + ' ' + e.message);
  console.log('explain unknown: ' + missing);

  // Start typing a protect of a layer-0 module and ask for completion inside the string.
  const typing = conflicting + 'protect "model.layers.0.mlp.';
  conn.sendNotification(lsp.DidChangeTextDocumentNotification.type,
    { textDocument: { uri, version: 3 }, contentChanges: [{ text: typing }] });
  const lines = typing.split('\n');
  const c = await conn.sendRequest(lsp.CompletionRequest.type,
    { textDocument: { uri }, position: { line: lines.length - 1, character: lines[lines.length - 1].length } });
  const labels = c.items.map((i) => i.label);
  console.log('completion: ' + labels.join(' '));
  check(labels.includes('model.layers.0.mlp.down_proj'), 'module name not completed');
  const kw = await conn.sendRequest(lsp.CompletionRequest.type,
    { textDocument: { uri }, position: { line: 2, character: 0 } });
  const words = kw.items.map((i) => i.label);
  check(['override', 'int16', 'per_channel', 'amct'].every((w) => words.includes(w)), 'keywords missing');
  console.log('completion words: override int16 per_channel amct present');

  conn.sendNotification(lsp.DidChangeTextDocumentNotification.type,
    { textDocument: { uri, version: 4 }, contentChanges: [{ text: conflicting }] });
  const def = await conn.sendRequest(lsp.DefinitionRequest.type,
    { textDocument: { uri }, position: pos(conflicting, '"tiny.manifest"', 2) });
  console.log('definition inventory: ' + path.basename(def.uri) + ':' + where(def.range));
  const defm = await conn.sendRequest(lsp.DefinitionRequest.type,
    { textDocument: { uri }, position: pos(conflicting, '"lm_head"', 2) });
  console.log('definition module: ' + path.basename(defm.uri) + ':' + where(defm.range));

  const withInclude = conflicting.replace('qspec 1\n', 'qspec 1\ninclude "lsp-included.qspec"\n');
  conn.sendNotification(lsp.DidChangeTextDocumentNotification.type,
    { textDocument: { uri, version: 40 }, contentChanges: [{ text: withInclude }] });
  const defi = await conn.sendRequest(lsp.DefinitionRequest.type,
    { textDocument: { uri }, position: pos(withInclude, '"lsp-included.qspec"', 3) });
  console.log('definition include: ' + path.basename(defi.uri) + ':' + where(defi.range));
  conn.sendNotification(lsp.DidChangeTextDocumentNotification.type,
    { textDocument: { uri, version: 41 }, contentChanges: [{ text: conflicting }] });

  const syms = await conn.sendRequest(lsp.DocumentSymbolRequest.type, { textDocument: { uri } });
  console.log('symbols: ' + syms.map((s) => s.name).join(', '));

  const messy = conflicting.replace('defaults { tier int8; weight int8 per_channel symmetric minmax }',
                                    'defaults {\ntier int8;   weight int8 per_channel symmetric minmax\n}');
  conn.sendNotification(lsp.DidChangeTextDocumentNotification.type,
    { textDocument: { uri, version: 5 }, contentChanges: [{ text: messy }] });
  const edits = await conn.sendRequest(lsp.DocumentFormattingRequest.type,
    { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } });
  check(edits.length === 1, 'formatting gave no edit');
  const formatted = edits[0].newText;
  for (const l of formatted.split('\n').filter((l) => l.startsWith('defaults') || l.startsWith('  ')))
    console.log('formatted: ' + l);
  conn.sendNotification(lsp.DidChangeTextDocumentNotification.type,
    { textDocument: { uri, version: 6 }, contentChanges: [{ text: formatted }] });
  const again = await conn.sendRequest(lsp.DocumentFormattingRequest.type,
    { textDocument: { uri }, options: { tabSize: 2, insertSpaces: true } });
  check(again.length === 0, 'formatting twice changed the text again');
  console.log('formatting again: no edit');

  // On save the declared targets' own checks run too (the emitters): an observer the Horizon
  // emitter refuses is reported after qlint's findings.
  // (Without the conflicting override: emitters run only on a spec the passes accept.)
  const badTarget = startText + 'target horizon { march nash-e; observer bogus }\n';
  conn.sendNotification(lsp.DidChangeTextDocumentNotification.type,
    { textDocument: { uri, version: 7 }, contentChanges: [{ text: badTarget }] });
  const saved = diagnosticsOf(7, (ds) => ds.some((d) => d.code === 'err_horizon_observer'));
  conn.sendNotification(lsp.DidSaveTextDocumentNotification.type, { textDocument: { uri } });
  for (const d of (await saved).filter((d) => d.code.startsWith('err_horizon')))
    console.log(`diagnostic on save: ${where(d.range)} ${d.code} ${d.message}`);

  await conn.sendRequest(lsp.ShutdownRequest.type);
  conn.sendNotification(lsp.ExitNotification.type);
  child.on('exit', (code) => {
    console.log('server exit: ' + code);
    process.exit(code === 0 ? 0 : 1);
  });
}

main().catch((e) => fail(e.stack || String(e)));
setTimeout(() => fail('timed out'), 600000).unref();
