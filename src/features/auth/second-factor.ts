import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { mfaMachine } from '../../../machines/mfa/mfa.machine.ts';
import type { secondFactorMachine } from '../../../machines/second-factor/second-factor.machine.ts';

export type MfaActorRef = ActorRefFrom<typeof mfaMachine>;
export type SecondFactorActorRef = ActorRefFrom<typeof secondFactorMachine>;

/**
 * What a sign-in page reads from its running `secondFactor` child: the MFA modal's actor (while the
 * modal is open) and whether the token is being stored (the form stays disabled meanwhile).
 */
export function useSecondFactor(secondFactorRef: SecondFactorActorRef | undefined) {
  const mfaRef = useSelector(secondFactorRef, (snapshot) => snapshot?.children.mfa as MfaActorRef | undefined);
  const storing = useSelector(secondFactorRef, (snapshot) => snapshot?.hasTag('busy') ?? false);
  return { mfaRef, storing };
}
