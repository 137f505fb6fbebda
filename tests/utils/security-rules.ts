import type { OperationSpec } from '../../server/openapi/contract.ts';
import type { ProblemType } from '../../server/plugins/problems.ts';
import type { CallerName } from './security-world.ts';

/**
 * What the security requirements of an operation in openapi.yaml give each kind of caller, as the
 * contract's "Security" section describes them: `session` (a bearer session token of a user who is not
 * blocked and whose role has not changed since; `session: [admin]` also needs the role), `mfaPending`
 * (the pending token of a sign-in), `xsrf` (the header equal to the cookie). The requirements of an
 * operation are alternatives; the schemes of one all apply, in order, and the first failure is answered.
 */

export interface Refusal {
  status: number;
  type: ProblemType;
}

/** What each caller presents. */
const CREDENTIAL: Record<CallerName, 'none' | 'malformed' | 'invalid' | 'pending' | 'user' | 'admin'> = {
  anonymous: 'none',
  malformedHeader: 'malformed',
  unsignedToken: 'invalid',
  forgedSignature: 'invalid',
  expiredToken: 'invalid',
  blockedUser: 'invalid',
  staleToken: 'invalid',
  mfaPending: 'pending',
  user: 'user',
  otherOrganisationUser: 'user',
  admin: 'admin',
  adminWithoutXsrf: 'admin',
};

const refusal = (status: number, type: ProblemType): Refusal => ({ status, type });

function schemeRefusal(scheme: string, roles: string[], caller: CallerName): Refusal | undefined {
  const credential = CREDENTIAL[caller];
  switch (scheme) {
    case 'session':
    case 'mfaPending': {
      if (credential === 'none') return refusal(401, 'authorization-header-not-present');
      if (credential === 'malformed') return refusal(401, 'invalid-authorization-header');
      const wanted = scheme === 'session' ? ['user', 'admin'] : ['pending'];
      if (!wanted.includes(credential)) return refusal(401, 'invalid-access-token');
      if (scheme === 'session' && roles.length > 0 && !roles.includes(credential)) return refusal(403, 'unauthorized-role');
      return undefined;
    }
    case 'xsrf':
      return caller === 'adminWithoutXsrf' ? refusal(403, 'xsrf-token-mismatch') : undefined;
    default:
      throw new Error(`security scheme ${scheme} has no rule in tests/utils/security-rules.ts: add one`);
  }
}

/** The refusal the operation's security gives this caller, or undefined when it lets them through. */
export function securityRefusal(op: OperationSpec, caller: CallerName): Refusal | undefined {
  if (op.security.length === 0) return undefined;
  let first: Refusal | undefined;
  for (const requirement of op.security) {
    let failed: Refusal | undefined;
    for (const [scheme, roles] of Object.entries(requirement)) {
      failed = schemeRefusal(scheme, roles, caller);
      if (failed) break;
    }
    if (!failed) return undefined;
    first ??= failed;
  }
  return first;
}
