import { exactDate, shortDate } from '../format.js';

/**
 * When something happened: the UTC date as text, the exact instant in the title (shown on hover) and
 * machine-readable in datetime. The text stays the same while the page does, so its ETag only changes with the
 * catalog; the enhancement script (enhance.ts) shows it relative ("3 days ago") in the browser.
 */
export function TimeAgo(props: { iso: string }) {
  return (
    <time dateTime={props.iso} title={exactDate(props.iso)} data-relative="">
      {shortDate(props.iso)}
    </time>
  );
}
