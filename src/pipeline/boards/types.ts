/** Result shapes of careers-page discovery and ATS detection (src/pipeline/boards/). */
import type { BoardRef } from '../../sources/types.js';

/** How a board was found, strongest first; `registry`: named by the registry of AI companies (registry/). */
export type BoardEvidence = 'registry' | 'final_url' | 'link' | 'iframe' | 'script' | 'inline';

export interface DetectedBoard extends BoardRef {
  evidence: BoardEvidence;
  /** The page on which the evidence was seen. */
  foundOn: string;
  /** Postings the vendor API returned when validating; null when not validated. */
  postingCount: number | null;
}

export interface DiscoveryResult {
  /** The careers page used (after redirects), or null when none was found. */
  careersUrl: string | null;
  /** Validated boards, deduplicated by (provider, token lower-case). */
  boards: DetectedBoard[];
  /** Candidates the vendor API rejected (404/malformed), for the run log. */
  rejected: Array<{ provider: string; token: string; reason: string }>;
}
