import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithTheme as render } from '../../../tests/utils/render.tsx';
import ViewsChart, { labelledDays, labelWidth, monotonePath, viewTicks, type DayPoint } from './views-chart.tsx';

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

  it('labels the first and last day and as many between as fit, none touching another', () => {
    // The last 30 days as the page labels them: 29 oct … 27 nov.
    const labels = Array.from({ length: 30 }, (_, index) => {
      const date = new Date(Date.UTC(2026, 9, 29 + index));
      return `${date.getUTCDate()} ${date.getUTCMonth() === 9 ? 'oct' : 'nov'}`;
    });
    // Where each label is drawn: the first starts at its day, the last ends at its day, the rest centred.
    const extent = (index: number, plotWidth: number) => {
      const x = (index * plotWidth) / 29;
      const width = labelWidth(labels[index]!);
      return index === 0 ? [x, x + width] : index === 29 ? [x - width, x] : [x - width / 2, x + width / 2];
    };
    // A laptop's plot, a 375 px phone's and a 320 px phone's (where '29 oct' once touched '6 nov').
    for (const [plotWidth, atLeast] of [[538, 7], [261, 4], [206, 3]] as const) {
      const shown = labelledDays(labels, plotWidth);
      expect(shown[0]).toBe(0);
      expect(shown.at(-1)).toBe(29);
      expect(shown.length, `${plotWidth} px: ${shown.join(', ')}`).toBeGreaterThanOrEqual(atLeast);
      for (let at = 1; at < shown.length; at++) {
        expect(extent(shown[at]!, plotWidth)[0]! - extent(shown[at - 1]!, plotWidth)[1]!, `${plotWidth} px: ${labels[shown[at - 1]!]} and ${labels[shown[at]!]}`).toBeGreaterThanOrEqual(6);
      }
    }
    // '22 nov' at 12 px is about 40 px wide.
    expect(labelWidth('22 nov')).toBeGreaterThan(36);
    expect(labelWidth('22 nov')).toBeLessThan(44);
    expect(labelledDays(labels.slice(0, 1), 260)).toEqual([0]);
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
