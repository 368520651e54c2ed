import { useSyncExternalStore } from 'react';
import { isAuthenticated, subscribeSession } from './session';

/** Whether someone is signed in, re-rendering on sign-in and sign-out. */
export const useIsSignedIn = (): boolean => useSyncExternalStore(subscribeSession, isAuthenticated, () => false);
