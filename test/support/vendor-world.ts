import { companySite, hostMapEnv } from '../pipeline/support.js';
import { startTestApp, type TestApp } from './app.js';
import { type FakeAts, type FakeAtsSpec, startFakeAts } from './fake-ats.js';
import { type FakeSites, startFakeSites } from './fake-site.js';

/** An app with its pipeline running, fake vendors, and one fake site per company whose careers page links boards. */
export interface VendorWorld {
  t: TestApp;
  ats: FakeAts;
  sites: FakeSites;
  close(): Promise<void>;
}

/** `companies`: domain → [name, board URLs its careers page links]. */
export async function startVendorWorld(
  boards: FakeAtsSpec,
  companies: Record<string, [string, string[]]>,
): Promise<VendorWorld> {
  const ats = await startFakeAts(boards);
  const sites = await startFakeSites(
    Object.fromEntries(Object.entries(companies).map(([d, [name, links]]) => [d, companySite(name, links)])),
  );
  const t = await startTestApp({ env: { OUTBOUND_HOST_MAP: hostMapEnv(sites.hostMap, ats.hostMap) } });
  await t.deps.pipeline.start();
  return {
    t,
    ats,
    sites,
    close: async () => {
      await t.close();
      await ats.close();
      await sites.close();
    },
  };
}
