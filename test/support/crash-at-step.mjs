/**
 * Crash point for the crash tests, preloaded into a `frontline` child process (`node --import <this file>
 * <entry>`, test/support/service-entry.ts). When the file named by CRASH_AT_STEP_FILE holds a step
 * name, the first step of that name this process executes is killed with SIGKILL right after its body returned
 * and before DBOS wrote its checkpoint: the step's writes are committed but the engine does not know, so recovery
 * must run the step again, and only idempotent steps leave no duplicates. The file is renamed to `<file>.fired`
 * first, so the process started after the crash (which preloads this too) runs the step normally.
 *
 * It wraps DBOS.runStep, the one call through which the engine (src/pipeline/engine/dbos-engine.ts) runs every
 * step; nothing else of the service is touched. Plain JavaScript, so a child preloading it needs no TypeScript
 * loader and can start from the suite's bundle (service-entry.ts).
 */
import { readFileSync, renameSync } from 'node:fs';
import { DBOS } from '@dbos-inc/dbos-sdk';

const control = process.env.CRASH_AT_STEP_FILE;

/** @returns {string | null} the step name the control file holds, if any */
function armedFor() {
  try {
    return readFileSync(control, 'utf8').trim();
  } catch {
    return null;
  }
}

if (control) {
  const runStep = DBOS.runStep.bind(DBOS);
  /** @type {typeof DBOS.runStep} */
  const crashing = (fn, config) =>
    runStep(async () => {
      const result = await fn();
      if (config?.name !== undefined && armedFor() === config.name) {
        renameSync(control, `${control}.fired`);
        process.kill(process.pid, 'SIGKILL');
        await new Promise(() => {});
      }
      return result;
    }, config);
  DBOS.runStep = crashing;
}
