import { CHART_SIZE, type ChartPoint, chartSummary } from '../../signals/svg.js';

/**
 * A hiring chart the API draws (?format=svg), as an image: its size fixed by the renderer's, so nothing shifts while
 * it loads, and its alt text the same figures the chart's own description states. On a screen narrower than the
 * chart it keeps its size (its labels stay 11 px) and scrolls sideways in its own box, which takes the keyboard.
 */
export function HiringChart(props: { src: string; title: string; points: readonly ChartPoint[] }) {
  return (
    // Focusable: a box that scrolls must be reachable by keyboard.
    <section class="chart-box" aria-label={`${props.title} (scrolls sideways)`} tabindex={0}>
      <img
        class="chart"
        src={props.src}
        alt={`${props.title}: ${chartSummary(props.points)}`}
        width={CHART_SIZE.width}
        height={CHART_SIZE.height}
      />
    </section>
  );
}
