#!/usr/bin/env bash
# Installs the npm packages of the VS Code extension (editors/vscode: its runtime dependency
# vscode-languageclient, and the tools the tests and `make vsix` use: vscode-languageserver-protocol,
# vscode-textmate, vscode-oniguruma, @vscode/vsce) into the git-ignored editors/vscode/node_modules,
# exactly as package-lock.json pins them, when they are missing or older than the lock file.
# Install scripts are not run (--ignore-scripts). Node.js and npm come from Debian when absent.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ext="$root/editors/vscode"
stamp="$ext/node_modules/.package-lock.json"

if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "setup: installing Node.js and npm from Debian"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  $SUDO apt-get update -q
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends nodejs npm
fi

if [ -f "$stamp" ] && [ "$stamp" -nt "$ext/package-lock.json" ]; then
  exit 0
fi
echo "setup: installing the npm packages of editors/vscode (npm ci --ignore-scripts)"
(cd "$ext" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
