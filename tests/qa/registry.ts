/**
 * Every machine's QA model, for the tools outside a test (`npm run qa`, tests/qa/cli.ts) and for
 * the check that no machine is left out (machines/qa-registry.test.ts).
 *
 * It lives in tests/, not in machines/: the models import the test helpers (and src/ messages), and
 * machines/ imports only xstate (eslint enforces it); production code never imports tests/.
 */
import { dialogModel } from '../../machines/dialog/dialog.model.test-support.ts';
import { loginModel } from '../../machines/login/login.model.test-support.ts';
import { mfaModel } from '../../machines/mfa/mfa.model.test-support.ts';
import { playbackModel } from '../../machines/playback/playback.model.test-support.ts';
import { registrationModel } from '../../machines/registration/registration.model.test-support.ts';
import { secondFactorModel } from '../../machines/second-factor/second-factor.model.test-support.ts';
import { sessionModel } from '../../machines/session/session.model.test-support.ts';
import { subtitleTracksModel } from '../../machines/subtitle-tracks/subtitle-tracks.model.test-support.ts';
import { statisticsExportModel } from '../../machines/statistics-export/statistics-export.model.test-support.ts';
import { ssoModel } from '../../machines/sso/sso.model.test-support.ts';
import { tagFilterModel } from '../../machines/tag-filter/tag-filter.model.test-support.ts';
import { toastModel } from '../../machines/toast/toast.model.test-support.ts';
import { uploadQueueModel } from '../../machines/upload-queue/upload-queue.model.test-support.ts';
import { videoFiltersModel } from '../../machines/video-filters/video-filters.model.test-support.ts';
import { videoOpinionModel } from '../../machines/video-opinion/video-opinion.model.test-support.ts';
import { videoSelectionModel } from '../../machines/video-selection/video-selection.model.test-support.ts';
import type { AnyQaModel } from '../utils/model/qa-model.ts';

export interface QaEntry {
  /** The machine's folder in machines/ (the model's `name`). */
  name: string;
  model: AnyQaModel;
  /** The test that walks each path on the rendered UI (paths named `<id> …`, so `vitest -t <id>` picks one). */
  testFile: string;
  /** Other names `npm run qa` accepts ('upload'). */
  aliases?: string[];
}

const entry = (model: AnyQaModel, testFile: string, aliases?: string[]): QaEntry => ({
  name: model.name,
  model,
  testFile: `machines/${model.name}/${testFile}`,
  ...(aliases ? { aliases } : {}),
});

export const registry: readonly QaEntry[] = [
  entry(loginModel, 'login.test.tsx'),
  entry(mfaModel, 'mfa.test.tsx'),
  entry(registrationModel, 'registration.test.tsx'),
  entry(secondFactorModel, 'second-factor.test.tsx'),
  entry(sessionModel, 'session.test.tsx'),
  entry(ssoModel, 'sso.test.tsx'),
  entry(tagFilterModel, 'tag-filter.machine.test.tsx'),
  entry(toastModel, 'toast.machine.test.tsx'),
  entry(uploadQueueModel, 'upload-queue.test.tsx', ['upload']),
  entry(videoFiltersModel, 'video-filters.machine.test.tsx'),
  entry(videoOpinionModel, 'video-opinion.test.tsx'),
  entry(playbackModel, 'playback.test.tsx'),
  entry(dialogModel, 'dialog.machine.test.ts'),
  entry(statisticsExportModel, 'statistics-export.machine.test.ts'),
  entry(subtitleTracksModel, 'subtitle-tracks.test.tsx'),
  entry(videoSelectionModel, 'video-selection.test.tsx'),
];

/** The entry of a machine by its folder name or an alias. */
export function findEntry(name: string): QaEntry | undefined {
  return registry.find((candidate) => candidate.name === name || candidate.aliases?.includes(name));
}
