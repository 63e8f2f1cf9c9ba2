#!/usr/bin/env bash
# Fails when the committed dist/ is not exactly what `npm run build` produces from src/.
set -euo pipefail
cd "$(dirname "$0")/.."
npm run -s build >/dev/null
changed=$(git status --porcelain -- dist)
if [ -n "$changed" ]; then
  echo "dist/ does not match a fresh build of src/ (changed or untracked files below)."
  echo "Run 'npm run build' and commit dist/ together with src/."
  echo "$changed"
  exit 1
fi
echo "dist/ matches a fresh build."
