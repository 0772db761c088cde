// The qspec VS Code extension: the grammar and language configuration are declared in
// package.json; this starts qspec-lsp (setting `qspec.server.path`) as the language client.
'use strict';
const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function activate(context) {
  const config = vscode.workspace.getConfiguration('qspec');
  const command = config.get('server.path', 'qspec-lsp');
  const args = config.get('server.args', []);
  const server = { command, args, options: {} };
  client = new LanguageClient('qspec', 'qspec-lsp', { run: server, debug: server }, {
    documentSelector: [{ scheme: 'file', language: 'qspec' }],
  });
  context.subscriptions.push({ dispose: () => client && client.stop() });
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
