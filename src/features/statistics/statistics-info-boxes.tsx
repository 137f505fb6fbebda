import type { ComponentType } from 'react';
import { Card, SimpleGrid, Skeleton, Stack, Text, ThemeIcon } from '@mantine/core';
import {
  IconBuilding,
  IconCalendarStats,
  IconChartBar,
  IconEye,
  IconStar,
  IconSubtitles,
  IconUsers,
  IconVideo,
  type IconProps,
} from '@tabler/icons-react';
import { appLabels } from '../../components/app-labels.ts';
import { StatisticsFailure } from './statistics-failure.tsx';
import { formatCount, formatRating } from './statistics-tables.ts';
import type { InfoBox } from './statistics.queries.ts';

/** The Tabler icon of each box's `icon` (openapi.yaml names them); anything else gets a chart. */
const ICONS: Record<string, ComponentType<IconProps>> = {
  videos: IconVideo,
  users: IconUsers,
  organizations: IconBuilding,
  views: IconEye,
  'views-30d': IconCalendarStats,
  rating: IconStar,
  subtitulos: IconSubtitles,
  subtitles: IconSubtitles,
  captions: IconSubtitles,
};

/** The boxes the server sends (videos, users, organisations, views, views in 30 days, rating, captioned videos): seven skeletons meanwhile. */
const SKELETON_BOXES = 7;

/** A box's count: a whole number with es-ES grouping, the average rating with two decimals (4,25). */
export function formatInfoBoxCount(box: Pick<InfoBox, 'id' | 'count'>): string {
  return box.id === 'rating' || !Number.isInteger(box.count) ? formatRating(box.count) : formatCount(box.count);
}

const SHARE_FORMAT = new Intl.NumberFormat('es-ES', { style: 'percent', maximumFractionDigits: 0 });

/** A box's share of all videos (R-STAT-12, captioned videos): es-ES percent, '60 %'. */
export function formatInfoBoxShare(share: number): string {
  return SHARE_FORMAT.format(share);
}

export interface StatisticsInfoBoxesProps {
  boxes: readonly InfoBox[] | undefined;
  failed: boolean;
  retrying: boolean;
  onRetry: () => void;
}

/** The info boxes (R-STAT-2): icon, count (and share, R-STAT-12) and title of each, in a grid of two to seven columns. */
export function StatisticsInfoBoxes({ boxes, failed, retrying, onRetry }: StatisticsInfoBoxesProps) {
  return (
    <section aria-label={appLabels.statisticsSummary} aria-busy={boxes === undefined && !failed}>
      <InfoBoxGrid boxes={boxes} failed={failed} retrying={retrying} onRetry={onRetry} />
    </section>
  );
}

function InfoBoxGrid({ boxes, failed, retrying, onRetry }: StatisticsInfoBoxesProps) {
  if (failed && boxes === undefined) {
    return (
      <Card withBorder radius="md" padding="sm">
        <StatisticsFailure onRetry={onRetry} retrying={retrying} />
      </Card>
    );
  }
  // Seven boxes: two rows of four (3 + 4 would leave one alone), one row on the widest screens.
  const grid = { cols: { base: 2, md: 4, xl: 7 }, spacing: 'md', component: 'ul', style: { listStyle: 'none', padding: 0, margin: 0 } } as const;
  if (boxes === undefined) {
    return (
      <SimpleGrid {...grid}>
        {Array.from({ length: SKELETON_BOXES }, (_, index) => (
          <Card key={index} withBorder radius="md" padding="md" component="li" aria-hidden>
            <Stack gap="xs">
              <Skeleton height={40} width={40} radius="md" />
              <div>
                <Skeleton height={24} width="50%" mb={8} />
                <Skeleton height={12} width="80%" />
              </div>
            </Stack>
          </Card>
        ))}
      </SimpleGrid>
    );
  }
  return (
    <SimpleGrid {...grid}>
      {boxes.map((box) => {
        const Icon = ICONS[box.icon] ?? IconChartBar;
        return (
          <Card key={box.id} withBorder radius="md" padding="md" component="li">
            {/* The icon above the figures: with two boxes a row on a phone, titles keep whole words. */}
            <Stack gap="xs" align="flex-start">
              <ThemeIcon size={40} radius="md" variant="light" aria-hidden>
                <Icon size={22} />
              </ThemeIcon>
              <div style={{ minWidth: 0 }}>
                <Text fz={24} fw={700} lh={1.2} style={{ fontVariantNumeric: 'tabular-nums' }}>
                  <span>{formatInfoBoxCount(box)}</span>
                  {box.share !== undefined && (
                    <>
                      {' '}
                      <Text span fz="md" fw={600} c="dimmed">
                        ({formatInfoBoxShare(box.share)})
                      </Text>
                    </>
                  )}
                </Text>
                <Text size="sm" c="dimmed" style={{ overflowWrap: 'break-word' }}>
                  {box.title}
                </Text>
              </div>
            </Stack>
          </Card>
        );
      })}
    </SimpleGrid>
  );
}
