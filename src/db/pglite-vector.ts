import type { Extension } from '@electric-sql/pglite';

/**
 * pgvector for the embedded database. PGlite ships it as a separate package, @electric-sql/pglite-pgvector (its
 * WASM build of the extension, pinned to PGlite's version); where that package is installed the embedded
 * database offers `vector`, and migrations give search ranked in the database its semantic lists. Where it is
 * not, the database offers no `vector` and that search ranks the keyword lists only (docs/deployment.md).
 */
const PACKAGE = '@electric-sql/pglite-pgvector';

/** The extension when its package is installed, else undefined. */
export async function pgliteVector(): Promise<Extension | undefined> {
  try {
    // A specifier held in a variable: the package is optional, so neither the type checker nor a bundler
    // may require it.
    const mod = (await import(PACKAGE)) as { vector?: Extension };
    return mod.vector;
  } catch (err) {
    // Only a missing package means "no vector"; a package that is there but fails to load is an error.
    const { code, message } = err as { code?: string; message?: string };
    if (code === 'ERR_MODULE_NOT_FOUND' && String(message).includes(PACKAGE)) return undefined;
    throw err;
  }
}
