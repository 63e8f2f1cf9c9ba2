#!/usr/bin/env node
// The `crew` command for local runs (see README, "Local mode"); the code is bundled in dist/cli.
import '../dist/cli/index.js';
