import { toast } from 'sonner';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { notify, prepareToasts } from './toast';

/** The toast module's lead time passed (on the fake clock), and the toasts it was asked for exist. */
const settled = () => vi.advanceTimersByTimeAsync(250);

beforeAll(() => {
  vi.useFakeTimers();
});
afterAll(() => {
  vi.useRealTimers();
});
const active = () => toast.getToasts().map((shown) => ('title' in shown ? shown.title : undefined));

describe('notify (spec §9: one toast at a time)', () => {
  it('replaces the toast showing with a new message, and keeps one toast for a repeat', async () => {
    await prepareToasts();
    notify.success('Länk kopierad!');
    await settled();
    expect(active()).toEqual(['Länk kopierad!']);

    notify.success('Katalog nedladdad');
    await settled();
    expect(active()).toEqual(['Katalog nedladdad']);

    // Two failing calls at once: one toast, not one going out as the other comes in.
    const before = toast.getHistory().length;
    notify.error('Sessionen har gått ut', 'Logga in igen för att fortsätta.');
    notify.error('Sessionen har gått ut', 'Logga in igen för att fortsätta.');
    await settled();
    expect(active()).toEqual(['Sessionen har gått ut']);
    expect(toast.getHistory().length - before).toBe(1);
  });
});

describe('notifyFailure (issue 19: the session’s toast stays)', () => {
  it('shows a failure, but not one that ended the session, whose own toast already shows', async () => {
    const { notifyFailure } = await import('./toast');
    const { ApiError } = await import('./api-client');
    await prepareToasts();
    notify.error('Sessionen har gått ut', 'Logga in igen för att fortsätta.');
    await settled();
    notifyFailure('Fel vid nedladdning', new ApiError(401, 'Inte inloggad'), 'Kunde inte ladda ner katalogen');
    await settled();
    expect(active()).toEqual(['Sessionen har gått ut']);

    notifyFailure('Fel vid nedladdning', new ApiError(500, 'API 500'), 'Kunde inte ladda ner katalogen');
    await settled();
    expect(active()).toEqual(['Fel vid nedladdning']);
  });

  it('clear takes the toast away', async () => {
    notify.error('Registrering misslyckades', 'Ogiltig gruppkod');
    await settled();
    notify.clear();
    await settled();
    expect(active()).toEqual([]);
  });
});
