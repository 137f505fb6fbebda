import { useState } from 'react';
import { Container, Group, SimpleGrid, Tabs, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { createFileRoute } from '@tanstack/react-router';
import { appLabels } from '../../../components/app-labels.ts';
import { searchForTab, tabOf, type VideoTab } from '../../../features/videos/video-search.ts';

/** The list's filters are validated by the authenticated layout (src/routes/_auth.tsx). */
export const Route = createFileRoute('/_auth/videos/')({
  component: VideosPage,
});

const tabs: { value: VideoTab; label: string }[] = [
  { value: 'todos', label: appLabels.tabAll },
  { value: 'favoritos', label: appLabels.tabFavorites },
  { value: 'no-vistos', label: appLabels.tabNotSeen },
];

function VideosPage() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const [text, setText] = useState(search.q ?? '');

  return (
    <Container size="xl" py="lg" component="main">
      <Group justify="space-between" align="flex-end" gap="md" mb="lg">
        <Tabs
          value={tabOf(search)}
          onChange={(tab) => void navigate({ search: searchForTab((tab ?? 'todos') as VideoTab, search) })}
        >
          <Tabs.List>
            {tabs.map((tab) => (
              <Tabs.Tab key={tab.value} value={tab.value}>
                {tab.label}
              </Tabs.Tab>
            ))}
          </Tabs.List>
        </Tabs>
        <TextInput
          type="search"
          aria-label={appLabels.search}
          placeholder={appLabels.search}
          leftSection={<IconSearch size={16} />}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          onKeyDown={(event) => {
            // SPEC.md §2: the search runs when Enter is pressed on non-empty text.
            if (event.key === 'Enter' && text.trim() !== '') {
              void navigate({ search: (previous) => ({ ...previous, q: text.trim() }) });
            }
          }}
          w={{ base: '100%', sm: 320 }}
        />
      </Group>
      <SimpleGrid aria-label={appLabels.videos} cols={{ base: 1, xs: 2, md: 3, xl: 4 }} spacing="lg" mih="50vh" />
    </Container>
  );
}
