#!/usr/bin/env bash
# Builds the product into .tmp/<name>/dist instead of dist/, so that several people can build and
# run the end-to-end tests at once without replacing each other's build:
#   scripts/build-apart.sh mine && TAO_DIST=.tmp/mine/dist npx vitest run tests/e2e/x.test.ts
set -euo pipefail
cd "$(dirname "$0")/.."
name="${1:?usage: scripts/build-apart.sh <name>}"
dir=".tmp/$name"
mkdir -p "$dir"
ln -sf ../../package.json "$dir/package.json"
ln -sf ../../openapi.yaml "$dir/openapi.yaml"
npx vite build --outDir "$dir/dist/client" --emptyOutDir --logLevel warn
npx tsc -p tsconfig.server.json --outDir "$dir/dist/server"
echo "built into $dir/dist: TAO_DIST=$dir/dist"
