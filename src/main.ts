import { runCli } from './cli.js';

// The process entry point: `node dist/main.js [command]` behaves like `frontline [command]`, serving by default.
await runCli(process.argv.length > 2 ? process.argv : [...process.argv, 'serve']);
