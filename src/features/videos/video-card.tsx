import { useEffect, useRef, useState, type ElementType } from 'react';
import { ActionIcon, Anchor, AspectRatio, Badge, Box, Card, Center, Checkbox, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconPencil, IconPhoto, IconPlayerPlayFilled, IconSubtitlesOff, IconTrash } from '@tabler/icons-react';
import type { components } from '../../../contract/openapi.gen.ts';
import { HoverTooltip } from '../../components/hover-tooltip.tsx';
import { formatDuration } from '../../lib/format/duration.ts';
import { bulkMessages, libraryMessages } from '../../lib/messages.ts';
import { CaptionSnippets } from './caption-snippets.tsx';
import { ShortDescription } from './short-description.tsx';
import { CARD_SIZES, thumbnailSrcSet } from './card-picture.ts';
import { FavoriteToggle } from './favorite-toggle.tsx';
import { AverageStars } from './star-rating.tsx';

type Video = components['schemas']['Video'];
type Etiqueta = components['schemas']['Etiqueta'];

/** R-GEN-9: the mobile breakpoint is 639 px together with no hover. */
export const TOUCH_SCREEN_QUERY = '(max-width: 639px) and (hover: none)';
/** On a touch screen the preview plays while this much of the card is in view. */
export const PREVIEW_IN_VIEW_RATIO = 0.75;
/**
 * …once the card has stayed that much in view this long: a card the user scrolls past does not
 * download its preview, and the first screen's pictures arrive before any preview competes with them.
 */
export const PREVIEW_SETTLE_MS = 800;

export interface VideoCardProps {
  video: Video;
  /** Shows the edit and delete buttons (R-LIB-2). */
  isAdmin: boolean;
  /** The element the links are rendered with: the router's `Link` (default: a plain `a`). */
  linkComponent?: ElementType;
  /**
   * Props of the picture's and the title's links to the detail page, for `linkComponent`: e.g.
   * `{ to: '/videos/$id', params: { id: String(video.id) }, search }` with the router's Link, or `{ href }`.
   */
  detailLink: (video: Video) => Record<string, unknown>;
  /** Props of a link to the detail page starting at a second (`search: { t }`): a search snippet's (R-LIB-25). */
  momentLink?: (video: Video, second: number) => Record<string, unknown>;
  /** Props of a tag's link to the list filtered by that tag (`search: { tag: 'in:<id>' }`). */
  tagLink: (tag: Etiqueta) => Record<string, unknown>;
  /** The heart: called with the new value. */
  onFavoriteChange: (video: Video, favorite: boolean) => void;
  /** While this video's favourite change is being saved. */
  favoriteBusy?: boolean;
  /** Admin: the edit dialog (wired later). */
  onEdit?: (video: Video) => void;
  /** Admin: the delete confirmation (wired later). */
  onDelete?: (video: Video) => void;
  /**
   * Admin, in the list's selection mode (R-ADM-15): the card's checkbox, over the picture but not
   * part of its link (a click selects, it does not open the video).
   */
  selection?: { selected: boolean; disabled?: boolean; onChange: (video: Video) => void } | undefined;
  /** Lorem sample data in a loading style (R-LIB-15): nothing is a link or a button. */
  placeholder?: false;
  /**
   * A card of the first row: its picture is what the page's first screen shows largest, so it is
   * fetched at once and first (not lazily); the others' wait until they come near the window.
   */
  firstRow?: boolean;
}

export interface PlaceholderCardProps {
  video: Video;
  placeholder: true;
}

/**
 * Whether the animated preview plays: while the pointer is over the card; on a touch screen (no
 * hover, R-GEN-9) while most of the card is in view instead, one card at a time as the user scrolls.
 */
function usePreview(enabled: boolean) {
  const [hovered, setHovered] = useState(false);
  const [inView, setInView] = useState(false);
  const touchScreen = useMediaQuery(TOUCH_SCREEN_QUERY) ?? false;
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = ref.current;
    if (!enabled || !touchScreen || !element || typeof IntersectionObserver === 'undefined') {
      setInView(false);
      return;
    }
    let settle: ReturnType<typeof setTimeout> | undefined;
    const observer = new IntersectionObserver(
      ([entry]) => {
        clearTimeout(settle);
        if (entry && entry.intersectionRatio >= PREVIEW_IN_VIEW_RATIO) settle = setTimeout(() => setInView(true), PREVIEW_SETTLE_MS);
        else setInView(false);
      },
      { threshold: [0, PREVIEW_IN_VIEW_RATIO, 1] },
    );
    observer.observe(element);
    return () => {
      clearTimeout(settle);
      observer.disconnect();
    };
  }, [enabled, touchScreen]);

  return {
    ref,
    playing: enabled && (touchScreen ? inView : hovered),
    hoverProps: {
      onMouseEnter: () => setHovered(true),
      onMouseLeave: () => setHovered(false),
    },
  };
}

/** A card's frame, the same for a video and a placeholder. */
const CARD_FRAME = { component: 'article', withBorder: true, shadow: 'xs', padding: 'sm', radius: 'md', h: '100%' } as const;
/**
 * The picture is a block: as an inline image it left a line's descender (7 px) of grey under it,
 * which the preview and the badges, placed on the whole section, then covered or sat on.
 */
const PICTURE_STYLE = { objectFit: 'cover', display: 'block' } as const;
/** The badges over the picture let a click through to the picture's link. */
const OVER_PICTURE = { pointerEvents: 'none' } as const;
/** The checkbox sits on a white tile, readable over any picture, above the link. */
const CHECKBOX_FRAME = { zIndex: 1, borderRadius: 'var(--mantine-radius-sm)', boxShadow: 'var(--mantine-shadow-xs)', lineHeight: 0 } as const;
/** A selected card is outlined in the theme's colour (the checkbox says it too). */
const SELECTED_STYLE = { outline: '3px solid var(--mantine-color-tao-7)', outlineOffset: -1 } as const;

/** A video of the list (R-LIB-3): thumbnail with animated preview, title, description, tags, stars, heart, 'No visto', play, duration, admin actions. */
export { thumbnailSrcSet };

export function VideoCard(props: VideoCardProps | PlaceholderCardProps) {
  if (props.placeholder) return <PlaceholderCard video={props.video} />;
  return <LoadedCard {...props} />;
}

function LoadedCard({
  video,
  isAdmin,
  linkComponent: Link = 'a',
  detailLink,
  momentLink,
  tagLink,
  onFavoriteChange,
  favoriteBusy = false,
  onEdit,
  onDelete,
  selection,
  firstRow = false,
}: VideoCardProps) {
  const preview = usePreview(Boolean(video.urlPreview));
  const duration = formatDuration(video.duracion);
  const titleId = `video-${video.id}-title`;

  return (
    <Card
      ref={preview.ref}
      {...CARD_FRAME}
      aria-labelledby={titleId}
      {...preview.hoverProps}
      style={selection?.selected ? SELECTED_STYLE : undefined}
    >
      <Card.Section pos="relative">
        {/* Before the link in the DOM (first in the card's tab order); a slot of its own, so the link is never remounted. */}
        {selection && (
          <Box pos="absolute" top={6} left={6} p={6} bg="white" style={CHECKBOX_FRAME}>
            <Checkbox
              size="md"
              aria-label={bulkMessages.selectVideo(video.titulo)}
              checked={selection.selected}
              disabled={selection.disabled}
              onChange={() => selection.onChange(video)}
            />
          </Box>
        )}
        {/* The picture is the video's link, as on every video site: first in the card's tab order. */}
        <Link {...detailLink(video)} aria-label={libraryMessages.play(video.titulo)} className="mantine-focus-auto" style={{ display: 'block', position: 'relative', outlineOffset: -3 }}>
          <AspectRatio ratio={16 / 9} bg="gray.2">
            {video.urlThumbnail ? (
              <img
                src={video.urlThumbnail}
                srcSet={thumbnailSrcSet(video.urlThumbnail)}
                sizes={CARD_SIZES}
                alt={libraryMessages.thumbnailAlt(video.titulo)}
                loading={firstRow ? 'eager' : 'lazy'}
                // The others low, so the browser does not raise those it finds in the window to the first row's.
                fetchPriority={firstRow ? 'high' : 'low'}
                decoding="async"
                style={PICTURE_STYLE}
              />
            ) : (
              <Center role="img" aria-label={libraryMessages.thumbnailAlt(video.titulo)}>
                <IconPhoto size={40} stroke={1.2} color="var(--mantine-color-gray-6)" aria-hidden />
              </Center>
            )}
          </AspectRatio>
          {preview.playing && video.urlPreview && (
            <video
              data-testid="video-preview"
              src={video.urlPreview}
              poster={video.urlThumbnail ?? undefined}
              muted
              loop
              playsInline
              autoPlay
              preload="auto"
              aria-hidden
              style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', objectFit: 'cover' }}
            />
          )}
          <Center pos="absolute" inset={0}>
            <ActionIcon component="span" size={56} radius="xl" variant="filled" color="tao.8" style={{ boxShadow: 'var(--mantine-shadow-md)' }} aria-hidden>
              <IconPlayerPlayFilled size={26} aria-hidden />
            </ActionIcon>
          </Center>
        </Link>
        {!video.visto && (
          <Badge pos="absolute" top={8} left={selection ? 52 : 8} color="tao.8" variant="filled" radius="sm" style={OVER_PICTURE}>
            {libraryMessages.notSeen}
          </Badge>
        )}
        {isAdmin && video.idiomasSubtitulos.length === 0 && (
          // Quiet on purpose (R-LIB-23): a fact for administrators, over the picture so the card keeps its size.
          <Badge
            pos="absolute"
            top={8}
            right={8}
            color="dark.7"
            variant="white"
            radius="sm"
            tt="none"
            fw={500}
            leftSection={<IconSubtitlesOff size={13} aria-hidden />}
            style={{ ...OVER_PICTURE, boxShadow: 'var(--mantine-shadow-xs)' }}
          >
            {libraryMessages.noSubtitles}
          </Badge>
        )}
        <Badge pos="absolute" bottom={8} right={8} color="dark.7" variant="filled" radius="sm" aria-label={libraryMessages.duration(duration)} style={OVER_PICTURE}>
          {duration}
        </Badge>
      </Card.Section>

      <Stack gap={6} mt="sm">
        <Title id={titleId} order={2} fz="md" fw={600} lineClamp={2}>
          <Anchor component={Link as 'a'} {...detailLink(video)} inherit c="inherit" underline="hover">
            {video.titulo}
          </Anchor>
        </Title>
        <ShortDescription text={video.descripcionCorta} lineClamp={3} c="gray.8" />
        {video.coincidencias && video.coincidencias.length > 0 && (
          <CaptionSnippets
            coincidencias={video.coincidencias}
            linkComponent={Link}
            momentLink={(second) => (momentLink ?? ((shown: Video) => detailLink(shown)))(video, second)}
          />
        )}
        {video.etiquetas.length > 0 && (
          <Group gap={6} component="ul" aria-label={libraryMessages.videoTags} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {video.etiquetas.map((tag) => (
              <li key={tag.id}>
                <Badge
                  component={Link as 'a'}
                  {...tagLink(tag)}
                  variant="light"
                  color="tao"
                  radius="sm"
                  tt="none"
                  style={{ cursor: 'pointer' }}
                >
                  {tag.nombre}
                </Badge>
              </li>
            ))}
          </Group>
        )}
        <Group justify="space-between" wrap="nowrap" mt={4}>
          <AverageStars value={video.puntuacionMedia} />
          <Group gap={2} wrap="nowrap">
            <FavoriteToggle favorite={video.favorito} busy={favoriteBusy} onChange={(favorite) => onFavoriteChange(video, favorite)} />
            {isAdmin && (
              <>
                <HoverTooltip hideOnClick label={libraryMessages.edit(video.titulo)}>
                  <ActionIcon variant="subtle" color="gray.8" size="lg" aria-label={libraryMessages.edit(video.titulo)} disabled={!onEdit} onClick={() => onEdit?.(video)}>
                    <IconPencil size={18} aria-hidden />
                  </ActionIcon>
                </HoverTooltip>
                <HoverTooltip hideOnClick label={libraryMessages.remove(video.titulo)}>
                  <ActionIcon variant="subtle" color="red.8" size="lg" aria-label={libraryMessages.remove(video.titulo)} disabled={!onDelete} onClick={() => onDelete?.(video)}>
                    <IconTrash size={18} aria-hidden />
                  </ActionIcon>
                </HoverTooltip>
              </>
            )}
          </Group>
        </Group>
      </Stack>
    </Card>
  );
}

/** The loading style of R-LIB-15: the lorem sample under animated skeletons; nothing to click. */
function PlaceholderCard({ video }: { video: Video }) {
  return (
    <Card {...CARD_FRAME} aria-busy="true">
      <Card.Section>
        <Skeleton visible animate>
          <AspectRatio ratio={16 / 9}>
            <Box />
          </AspectRatio>
        </Skeleton>
      </Card.Section>
      <Stack gap={8} mt="sm">
        <Skeleton visible width="80%">
          <Text fw={600}>{video.titulo}</Text>
        </Skeleton>
        <Skeleton visible>
          <Text size="sm" lineClamp={3}>
            {video.descripcionCorta}
          </Text>
        </Skeleton>
        <Group gap={6}>
          {video.etiquetas.map((tag) => (
            <Skeleton key={tag.id} visible width={56} radius="sm">
              <Badge>{tag.nombre}</Badge>
            </Skeleton>
          ))}
        </Group>
        <Skeleton visible width={100} height={18} />
      </Stack>
    </Card>
  );
}
