import type { AppContext } from '../../context.ts';

/** What the account services need: the API passes its AppContext, the CLI builds one from the same config. */
export type AccountsContext = Pick<AppContext, 'config' | 'db' | 'secrets'>;
