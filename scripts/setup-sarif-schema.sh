#!/usr/bin/env bash
# Installs the SARIF 2.1.0 JSON schema that test/lint/sarif-schema.test validates qlint's
# `--format=sarif` output against, into the git-ignored test/lint/Inputs/sarif-schema/, when it is
# missing. The schema (OASIS SARIF 2.1.0, rtm.5 = the final 2.1.0 text) comes from the npm
# package @microsoft/jest-sarif, which ships it as lib/schemas/sarif-2.1.0-rtm.5.json; only that
# file is taken from the tarball (`npm pack`: no install, no scripts, no dependencies).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dest="$root/test/lint/Inputs/sarif-schema"
schema="$dest/sarif-schema-2.1.0.json"
pkg="@microsoft/jest-sarif@1.0.0-beta.0"

if [ -s "$schema" ]; then
  exit 0
fi
if ! command -v npm >/dev/null 2>&1; then
  bash "$root/scripts/setup-npm.sh" # installs Node.js and npm from Debian when absent
fi
echo "setup: fetching the SARIF 2.1.0 schema from the npm package $pkg"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack "$pkg" --silent --loglevel=error >/dev/null)
tar -xzf "$tmp"/*.tgz -C "$tmp" package/lib/schemas/sarif-2.1.0-rtm.5.json
mkdir -p "$dest"
mv "$tmp/package/lib/schemas/sarif-2.1.0-rtm.5.json" "$schema"
