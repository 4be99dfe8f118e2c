import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/**
 * A path inside the package (the directory holding package.json), e.g. packagePath('migrations'). Files read by
 * path at run time are found from there, so the same code works from src/ (tsx), from the bundle in dist/, and
 * in the image. Looked up on first use: importing a module does no I/O.
 */
export function packagePath(...parts: string[]): string {
  root ??= findRoot(dirname(fileURLToPath(import.meta.url)));
  return join(root, ...parts);
}

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
}
