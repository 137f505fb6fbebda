import '@mantine/charts/styles.css';
import { AreaChart } from '@mantine/charts';
import { appLabels } from '../../components/app-labels.ts';
import { formatCount } from './statistics-tables.ts';

/** One day as drawn and listed: '22 nov' and its views. */
export interface DayPoint {
  dia: string;
  label: string;
  visualizaciones: number;
}

/**
 * The views-per-day chart: @mantine/charts over recharts, loaded on its own (React.lazy from
 * views-per-day.tsx) so neither the rest of the app nor the first paint of /statistics waits for
 * recharts. The drawing is hidden from assistive technology: the same numbers are the table
 * beside it.
 */
export default function ViewsChart({ points }: { points: readonly DayPoint[] }) {
  return (
    <div aria-hidden>
      <AreaChart
        h={240}
        data={[...points]}
        dataKey="label"
        series={[{ name: 'visualizaciones', label: appLabels.viewsPerDayViews, color: 'tao.6' }]}
        curveType="monotone"
        withDots={false}
        gridAxis="y"
        tickLine="none"
        valueFormatter={formatCount}
        // recharts' keyboard layer makes the drawing focusable; hidden from assistive technology it
        // must not be (the table beside it is the accessible form, and 'Ver como tabla' shows it).
        accessibilityLayer={false}
        xAxisProps={{ interval: 'preserveStartEnd', minTickGap: 16 }}
        yAxisProps={{ allowDecimals: false, width: 48 }}
      />
    </div>
  );
}
