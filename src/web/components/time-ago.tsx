import { ago, exactDate } from '../format.js';

/** "3 days ago", with the exact instant in the title (shown on hover) and machine-readable in datetime. */
export function TimeAgo(props: { iso: string; nowMs: number }) {
  return (
    <time dateTime={props.iso} title={exactDate(props.iso)}>
      {ago(props.iso, props.nowMs)}
    </time>
  );
}
