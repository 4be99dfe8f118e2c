// Copies the data files under src/ (JSON read at run time by path, e.g. the embedder's lexicon, whose exact bytes
// are part of the model identity) into dist/, which tsc alone does not do for files it does not import.
import { cpSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

const walk = (dir) =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.json') ? [join(dir, e.name)] : [],
  );

for (const file of walk('src')) cpSync(file, join('dist', relative('src', file)));
