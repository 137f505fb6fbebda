import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithTheme as render } from '../../../tests/utils/render.tsx';
import ViewsChart, { labelledDays, monotonePath, viewTicks, type DayPoint } from './views-chart.tsx';

const days: DayPoint[] = Array.from({ length: 30 }, (_, index) => ({
  dia: `2026-11-${String(index + 1).padStart(2, '0')}`,
  label: `${index + 1} nov`,
  visualizaciones: index === 10 ? 1234 : index % 3,
}));

describe('the views-per-day chart', () => {
  it('shows the day and its views under the pointer', () => {
    render(<ViewsChart points={days} />);
    const chart = screen.getByTestId('views-chart');
    // jsdom lays nothing out: the chart is drawn 600 px wide from x = 0, its plot 48–586 px.
    fireEvent.pointerMove(chart, { clientX: 48 + (538 * 10) / 29 });
    expect(screen.getByText('11 nov')).toBeInTheDocument();
    expect(screen.getByText('Visualizaciones: 1234', { exact: false })).toBeInTheDocument();
    fireEvent.pointerLeave(chart);
    expect(screen.queryByText(/Visualizaciones:/)).not.toBeInTheDocument();
  });

  it('labels the first and last day and as many between as fit', () => {
    // 538 px for 29 gaps: 18.6 px a day, a label every 4 days (74 px); 28 would touch 29.
    expect(labelledDays(30, 538)).toEqual([0, 4, 8, 12, 16, 20, 24, 29]);
    // A phone's 260 px: 9 px a day, a label every 7 days.
    expect(labelledDays(30, 260)).toEqual([0, 7, 14, 21, 29]);
    expect(labelledDays(1, 260)).toEqual([0]);
  });

  it('counts its axis in whole, round steps above the largest day', () => {
    expect(viewTicks(0)).toEqual([0, 1]);
    expect(viewTicks(3)).toEqual([0, 1, 2, 3]);
    expect(viewTicks(1234)).toEqual([0, 500, 1000, 1500]);
  });

  it('draws a line that never goes below zero views between days', () => {
    const path = monotonePath([
      [0, 100],
      [10, 0],
      [20, 0],
      [30, 100],
    ]);
    const ys = [...path.matchAll(/[-\d.]+,([-\d.]+)/g)].map((match) => Number(match[1]));
    expect(Math.max(...ys)).toBeLessThanOrEqual(100);
    expect(Math.min(...ys)).toBeGreaterThanOrEqual(0);
  });
});
