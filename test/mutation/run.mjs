// Runs StrykerJS over every mutation group in turn (or those named as arguments) and prints each group's score.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { GROUPS } from './groups.mjs';

const names = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(GROUPS);
const scores = [];
for (const name of names) {
  const run = spawnSync('npx', ['stryker', 'run'], {
    stdio: 'inherit',
    env: { ...process.env, MUTATION_GROUP: name },
  });
  if (run.status !== 0) {
    scores.push(`${name}: stryker exited ${run.status}`);
    continue;
  }
  const report = JSON.parse(readFileSync(`reports/mutation/${name}.json`, 'utf8'));
  for (const [file, { mutants }] of Object.entries(report.files)) {
    const count = (s) => mutants.filter((m) => s.includes(m.status)).length;
    const killed = count(['Killed', 'Timeout']);
    const valid = killed + count(['Survived', 'NoCoverage']);
    scores.push(`${name}: ${file} ${((100 * killed) / Math.max(1, valid)).toFixed(1)}% (${killed}/${valid})`);
  }
}
console.log(`\nMutation scores\n${scores.join('\n')}`);
