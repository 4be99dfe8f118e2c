import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { CellCounter, CellHistogram } from '../../src/metric-cells.js';

const BUCKETS = [0.001, 0.01, 0.1, 1];
const labelNames = ['route', 'status'] as const;
// On a bound, between bounds, below the first and above the last.
const OBSERVATIONS: [string, string, number][] = [
  ['/a', '200', 0.001],
  ['/a', '200', 0.0005],
  ['/a', '200', 0.05],
  ['/a', '200', 7],
  ['/b', '404', 0.01],
  ['/a', '500', 1],
];

describe('metric cells', () => {
  it('export exactly what prom-client exports for the same observations', async () => {
    const reference = new Registry();
    const counter = new Counter({ name: 'c', help: 'c', labelNames, registers: [reference] });
    const histogram = new Histogram({
      name: 'h',
      help: 'h',
      labelNames,
      buckets: BUCKETS,
      registers: [reference],
    });
    const cells = new Registry();
    const cellCounter = new CellCounter({ name: 'c', help: 'c', labelNames, registers: [cells] });
    const cellHistogram = new CellHistogram({
      name: 'h',
      help: 'h',
      labelNames,
      buckets: BUCKETS,
      registers: [cells],
    });

    const bound = new Map<
      string,
      [ReturnType<typeof cellCounter.cell>, ReturnType<typeof cellHistogram.cell>]
    >();
    for (const [route, status, seconds] of OBSERVATIONS) {
      counter.inc({ route, status });
      histogram.observe({ route, status }, seconds);
      const key = `${route} ${status}`;
      if (!bound.has(key))
        bound.set(key, [cellCounter.cell({ route, status }), cellHistogram.cell({ route, status })]);
      const [c, h] = bound.get(key) ?? [];
      c?.inc();
      h?.observe(seconds);
    }
    expect(await cells.metrics()).toBe(await reference.metrics());

    // A second scrape adds only what was counted since the first.
    counter.inc({ route: '/a', status: '200' });
    bound.get('/a 200')?.[0].inc();
    expect(await cells.metrics()).toBe(await reference.metrics());
    expect(await cells.metrics()).toContain('c{route="/a",status="200"} 5');
  });

  it('export nothing for a label set never counted, and start over on reset', async () => {
    const registry = new Registry();
    const counter = new CellCounter({ name: 'c', help: 'c', labelNames, registers: [registry] });
    const histogram = new CellHistogram({
      name: 'h',
      help: 'h',
      labelNames,
      buckets: BUCKETS,
      registers: [registry],
    });
    counter.cell({ route: '/idle', status: '200' });
    histogram.cell({ route: '/idle', status: '200' });
    expect(await registry.metrics()).not.toContain('/idle');

    const c = counter.cell({ route: '/x', status: '200' });
    const h = histogram.cell({ route: '/x', status: '200' });
    c.inc();
    h.observe(0.5);
    registry.resetMetrics();
    c.inc();
    expect(await registry.metrics()).toContain('c{route="/x",status="200"} 1');
    expect(await registry.metrics()).not.toContain('h_count');
  });
});
