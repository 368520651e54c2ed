import { useCallback, useSyncExternalStore } from 'react';

/** Chromium's install event (not in TypeScript's DOM types). */
interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

/** spec §1: dismissing the banner is remembered for good. */
export const INSTALL_DISMISSED_KEY = 'saljportalen.install-banner-dismissed';

/** iPhone and iPad Safari, which can add to the home screen but has no install event. */
export function isIosSafari(userAgent: string, platform = '', maxTouchPoints = 0): boolean {
  // iPadOS 13+ says it is a Mac; only its touch screen gives it away.
  const iosDevice = /iPad|iPhone|iPod/.test(userAgent) || (platform === 'MacIntel' && maxTouchPoints > 1);
  if (!iosDevice) return false;
  // Chrome, Firefox, Edge and Opera on iOS name themselves; the steps below are Safari's.
  return /Safari\//.test(userAgent) && !/CriOS|FxiOS|EdgiOS|OPiOS|GSA\//.test(userAgent);
}

/** Already running as an installed app (home-screen icon), where the banner has no purpose. */
export function isStandalone(): boolean {
  const iosStandalone = (navigator as Navigator & { standalone?: boolean }).standalone === true;
  return iosStandalone || window.matchMedia('(display-mode: standalone)').matches;
}

function readDismissed(): boolean {
  try {
    return localStorage.getItem(INSTALL_DISMISSED_KEY) === '1';
  } catch {
    return false;
  }
}

// The event can fire before React has drawn anything, so it is caught when this module loads.
let deferredPrompt: BeforeInstallPromptEvent | null = null;
let installed = false;
// Read when first asked, not while the app's code is still being evaluated.
let dismissed: boolean | undefined;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

if (typeof window !== 'undefined') {
  window.addEventListener('beforeinstallprompt', (event) => {
    // Our banner offers the install; Chrome's own mini-infobar would say it twice.
    event.preventDefault();
    deferredPrompt = event as BeforeInstallPromptEvent;
    emit();
  });
  window.addEventListener('appinstalled', () => {
    deferredPrompt = null;
    installed = true;
    emit();
  });
}

export type InstallKind = 'prompt' | 'ios' | null;

function currentKind(): InstallKind {
  dismissed ??= readDismissed();
  if (dismissed || installed || isStandalone()) return null;
  if (deferredPrompt) return 'prompt';
  return isIosSafari(navigator.userAgent, navigator.platform, navigator.maxTouchPoints) ? 'ios' : null;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/**
 * Which install offer to show: Chromium's own prompt, the iOS Safari steps, or none (installed,
 * dismissed, or a browser that cannot install).
 */
export function useInstallOffer() {
  const kind = useSyncExternalStore(subscribe, currentKind, () => null);

  const dismiss = useCallback(() => {
    dismissed = true;
    try {
      localStorage.setItem(INSTALL_DISMISSED_KEY, '1');
    } catch {
      // Storage refused: hidden for this visit at least.
    }
    emit();
  }, []);

  /** Opens Chromium's install dialog; the event can be used once. */
  const promptInstall = useCallback(async () => {
    const event = deferredPrompt;
    if (!event) return;
    deferredPrompt = null;
    await event.prompt();
    const { outcome } = await event.userChoice;
    if (outcome === 'accepted') installed = true;
    emit();
  }, []);

  return { kind, dismiss, promptInstall };
}
