import type { AppContext } from '../../context.ts';

// Replaced by the accounts module: answers the first-administrator registration link while no administrator exists.
export async function firstAdministratorLink(_ctx: AppContext): Promise<string | null> {
  return null;
}
