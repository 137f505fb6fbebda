import { useState, type PointerEvent } from 'react';
import { useElementSize } from '@mantine/hooks';
import { appLabels } from '../../components/app-labels.ts';
import { formatCount } from './statistics-tables.ts';

/** One day as drawn and listed: '22 nov' and its views. */
export interface DayPoint {
  dia: string;
  label: string;
  visualizaciones: number;
}

const HEIGHT = 240;
const MARGIN = { top: 10, right: 14, bottom: 28, left: 48 };
/** Before the box is measured (and where nothing is laid out, as in jsdom). */
const FALLBACK_WIDTH = 600;
/** The day labels' font size (px). */
const LABEL_FONT = 12;
/** Kept between two day labels (px). */
const LABEL_GAP = 6;

/**
 * How wide a day label ('22 nov') is drawn, estimated from its characters (a little generously:
 * digits and letters at 0.62 em, spaces at 0.32 em), so that labels estimated apart never touch.
 */
export function labelWidth(label: string): number {
  const spaces = label.split(' ').length - 1;
  return LABEL_FONT * (0.62 * (label.length - spaces) + 0.32 * spaces);
}

const TICKS = 4;

/** Round steps for the views axis (whole numbers: views are counted, never split). */
export function viewTicks(max: number): number[] {
  if (!(max > 0)) return [0, 1];
  const rough = max / TICKS;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step = Math.max(1, [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= rough) ?? 10 * power);
  const ticks: number[] = [];
  for (let value = 0; value < max + step; value += step) ticks.push(value);
  return ticks;
}

/** Where a day's label stands against its day: the first starts there, the last ends there, the rest are centred. */
export function labelAnchor(index: number, count: number): 'start' | 'end' | 'middle' {
  return index === 0 ? 'start' : index === count - 1 ? 'end' : 'middle';
}

/**
 * Which days get a label: the first (its label starts at its day), the last (its label ends there),
 * and as many between as fit without touching them or each other (centred on their days), at a
 * steady step of days where they can.
 */
export function labelledDays(labels: readonly string[], plotWidth: number): number[] {
  const count = labels.length;
  if (count <= 1) return count === 1 ? [0] : [];
  const last = count - 1;
  const day = plotWidth / last;
  const extent = (index: number): [number, number] => {
    const x = index * day;
    const width = labelWidth(labels[index]!);
    const before = { start: 0, middle: width / 2, end: width }[labelAnchor(index, count)];
    return [x - before, x - before + width];
  };
  const apart = (left: number, right: number) => extent(left)[1] + LABEL_GAP <= extent(right)[0];
  const widest = Math.max(...labels.map(labelWidth));
  const every = Math.max(1, Math.ceil((widest + LABEL_GAP) / day));
  const shown = [0];
  for (let index = every; index < last; index += every) {
    if (apart(shown.at(-1)!, index) && apart(index, last)) shown.push(index);
  }
  shown.push(last);
  return shown;
}

/** A smooth line through the points that never overshoots them (monotone cubic, Fritsch–Carlson). */
export function monotonePath(points: ReadonlyArray<readonly [number, number]>): string {
  const n = points.length;
  if (n === 0) return '';
  const [x0, y0] = points[0]!;
  if (n === 1) return `M${x0},${y0}`;
  const slopes = points.slice(0, -1).map(([x, y], index) => (points[index + 1]![1] - y) / (points[index + 1]![0] - x));
  const tangents = points.map((_, index) => {
    if (index === 0) return slopes[0]!;
    if (index === n - 1) return slopes[n - 2]!;
    const before = slopes[index - 1]!;
    const after = slopes[index]!;
    return before * after <= 0 ? 0 : (before + after) / 2;
  });
  for (let index = 0; index < n - 1; index++) {
    const slope = slopes[index]!;
    if (slope === 0) {
      tangents[index] = 0;
      tangents[index + 1] = 0;
      continue;
    }
    const a = tangents[index]! / slope;
    const b = tangents[index + 1]! / slope;
    const size = a * a + b * b;
    if (size > 9) {
      const scale = 3 / Math.sqrt(size);
      tangents[index] = scale * a * slope;
      tangents[index + 1] = scale * b * slope;
    }
  }
  let path = `M${x0},${y0}`;
  for (let index = 0; index < n - 1; index++) {
    const [x1, y1] = points[index]!;
    const [x2, y2] = points[index + 1]!;
    const third = (x2 - x1) / 3;
    path += `C${x1 + third},${y1 + tangents[index]! * third},${x2 - third},${y2 - tangents[index + 1]! * third},${x2},${y2}`;
  }
  return path;
}

/**
 * The views-per-day chart: an area drawn in SVG here (a few kilobytes, where a charting library
 * was over 100 KB to load and run on a phone: docs/decisions/0052-first-screen-budget-and-code-splitting.md).
 * The drawing is hidden from assistive technology: the same numbers are the table beside it, and
 * 'Ver como tabla' shows that table instead. A pointer over the drawing shows the day's figure.
 */
export default function ViewsChart({ points }: { points: readonly DayPoint[] }) {
  const { ref, width: measured } = useElementSize<HTMLDivElement>();
  const [hovered, setHovered] = useState<number | null>(null);
  const width = measured > 0 ? measured : FALLBACK_WIDTH;
  const plotWidth = Math.max(1, width - MARGIN.left - MARGIN.right);
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const ticks = viewTicks(Math.max(0, ...points.map((point) => point.visualizaciones)));
  const top = ticks.at(-1)!;
  const x = (index: number) => MARGIN.left + (points.length > 1 ? (index * plotWidth) / (points.length - 1) : plotWidth / 2);
  const y = (value: number) => MARGIN.top + plotHeight - (value / top) * plotHeight;
  const coordinates = points.map((point, index) => [x(index), y(point.visualizaciones)] as const);
  const line = monotonePath(coordinates);
  const baseline = y(0);
  const area = coordinates.length > 0 ? `${line}L${coordinates.at(-1)![0]},${baseline}L${coordinates[0]![0]},${baseline}Z` : '';

  const onPointerMove = (event: PointerEvent<SVGSVGElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const at = event.clientX - box.left - MARGIN.left;
    const index = points.length > 1 ? Math.round((at / plotWidth) * (points.length - 1)) : 0;
    setHovered(Math.min(points.length - 1, Math.max(0, index)));
  };
  const shown = hovered === null ? undefined : points[hovered];

  return (
    <div ref={ref} aria-hidden style={{ position: 'relative', height: HEIGHT }}>
      <svg
        data-testid="views-chart"
        width={width}
        height={HEIGHT}
        style={{ display: 'block', touchAction: 'pan-y' }}
        onPointerMove={onPointerMove}
        onPointerLeave={() => setHovered(null)}
      >
        <g fontSize={LABEL_FONT} fill="var(--mantine-color-gray-7)">
          {ticks.map((tick) => (
            <g key={tick}>
              <line x1={MARGIN.left} x2={MARGIN.left + plotWidth} y1={y(tick)} y2={y(tick)} stroke="var(--mantine-color-gray-3)" strokeDasharray="5 5" />
              <text x={MARGIN.left - 8} y={y(tick)} textAnchor="end" dominantBaseline="central">
                {formatCount(tick)}
              </text>
            </g>
          ))}
          {labelledDays(points.map((point) => point.label), plotWidth).map((index) => (
            <text key={points[index]!.dia} x={x(index)} y={HEIGHT - 8} textAnchor={labelAnchor(index, points.length)}>
              {points[index]!.label}
            </text>
          ))}
        </g>
        <path d={area} fill="var(--mantine-color-tao-6)" fillOpacity={0.2} />
        <path d={line} fill="none" stroke="var(--mantine-color-tao-6)" strokeWidth={2} />
        {hovered !== null && coordinates[hovered] && (
          <g>
            <line x1={coordinates[hovered][0]} x2={coordinates[hovered][0]} y1={MARGIN.top} y2={baseline} stroke="var(--mantine-color-gray-5)" />
            <circle cx={coordinates[hovered][0]} cy={coordinates[hovered][1]} r={4} fill="var(--mantine-color-tao-6)" stroke="white" strokeWidth={2} />
          </g>
        )}
      </svg>
      {shown && hovered !== null && (
        <div
          style={{
            position: 'absolute',
            top: MARGIN.top,
            left: Math.min(Math.max(0, x(hovered) + 12), Math.max(0, width - 150)),
            padding: '6px 10px',
            background: 'var(--mantine-color-body)',
            border: '1px solid var(--mantine-color-gray-3)',
            borderRadius: 'var(--mantine-radius-sm)',
            boxShadow: 'var(--mantine-shadow-sm)',
            fontSize: 13,
            pointerEvents: 'none',
            whiteSpace: 'nowrap',
          }}
        >
          <div style={{ fontWeight: 600 }}>{shown.label}</div>
          <div>
            {appLabels.viewsPerDayViews}: {formatCount(shown.visualizaciones)}
          </div>
        </div>
      )}
    </div>
  );
}
