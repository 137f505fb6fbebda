import type { AppContext, ServerModule } from '../../context.ts';

// The accounts module (login, MFA, register, single sign-on, session security) is being written.
export function accountsModule(_ctx: AppContext): ServerModule {
  return { handlers: {} };
}
