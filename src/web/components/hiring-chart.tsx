import { CHART_SIZE, type ChartPoint, chartSummary } from '../../signals/svg.js';

/**
 * A hiring chart the API draws (?format=svg), as an image: its size fixed by the renderer's, so nothing shifts while
 * it loads, and its alt text the same figures the chart's own description states.
 */
export function HiringChart(props: { src: string; title: string; points: readonly ChartPoint[] }) {
  return (
    <img
      class="chart"
      src={props.src}
      alt={`${props.title}: ${chartSummary(props.points)}`}
      width={CHART_SIZE.width}
      height={CHART_SIZE.height}
    />
  );
}
