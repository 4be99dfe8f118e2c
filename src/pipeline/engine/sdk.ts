export type Sdk = typeof import('@dbos-inc/dbos-sdk');

let sdkModule: Sdk | undefined;

/**
 * DBOS and its dependencies take a noticeable moment to import; a server loads them when it launches the engine,
 * after it has started answering catalog reads.
 */
export async function loadSdk(): Promise<Sdk> {
  sdkModule ??= await import('@dbos-inc/dbos-sdk');
  return sdkModule;
}
