import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { refusedFields, showRefusalAtFields } from './server-field-errors';

const refusal = (details: unknown) => new ApiError(400, 'Fel', 'VALIDATION', details);

function recordingForm() {
  const calls: { field: string; message: string | undefined; focus: boolean }[] = [];
  return {
    calls,
    setError: (field: string, error: { message?: string }, options?: { shouldFocus?: boolean }) =>
      void calls.push({ field, message: error.message, focus: options?.shouldFocus === true }),
  };
}

describe('refusedFields', () => {
  it('keeps only issues that name a field with a message', () => {
    const details = [{ field: 'email', message: 'Upptagen' }, { message: 'Hela begäran' }, { field: 3, message: 'x' }, null, 'text'];
    expect(refusedFields(refusal(details))).toEqual([{ field: 'email', message: 'Upptagen' }]);
  });

  it('finds none in an error that is not the API’s, or has no details', () => {
    expect(refusedFields(new Error('nej'))).toEqual([]);
    expect(refusedFields(new ApiError(409, 'Upptagen', 'EMAIL_TAKEN'))).toEqual([]);
  });
});

describe('showRefusalAtFields', () => {
  it('sets each named field in the form’s order and focuses only the first', () => {
    const form = recordingForm();
    const shown = showRefusalAtFields(
      form as never,
      refusal([
        { field: 'group_code', message: 'Okänd' },
        { field: 'email', message: 'Upptagen' },
      ]),
      ['full_name', 'email', 'group_code'],
    );
    expect(shown).toBe(true);
    expect(form.calls).toEqual([
      { field: 'email', message: 'Upptagen', focus: true },
      { field: 'group_code', message: 'Okänd', focus: false },
    ]);
  });

  it('reads a request field under the form’s own name, and leaves out fields the form lacks', () => {
    const form = recordingForm();
    const error = refusal([
      { field: 'admin.email', message: 'Ogiltig' },
      { field: 'secret', message: 'x' },
    ]);
    expect(showRefusalAtFields(form as never, error, ['group_name', 'admin_email'], { 'admin.email': 'admin_email' })).toBe(true);
    expect(form.calls).toEqual([{ field: 'admin_email', message: 'Ogiltig', focus: true }]);
    expect(showRefusalAtFields(recordingForm() as never, refusal([{ field: 'secret', message: 'x' }]), ['email'])).toBe(false);
  });
});
