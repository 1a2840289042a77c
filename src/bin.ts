#!/usr/bin/env node
// The `monitoring-service-api` command (see cli/index.ts).
import { fail, main } from './cli/index.js';

main(process.argv.slice(2)).catch(fail);
