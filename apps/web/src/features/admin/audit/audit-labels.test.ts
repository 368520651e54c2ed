import { describe, expect, it } from 'vitest';
import { actionLabel, targetLabel } from './audit-labels';

describe('audit labels', () => {
  it('names the actions the server records in Swedish, and shows an unknown one as recorded', () => {
    expect(actionLabel('group.rename')).toBe('Grupp omdöpt');
    expect(actionLabel('webhook.replay')).toBe('Webbhook körd igen');
    expect(actionLabel('account.erase')).toBe('Konto raderat');
    // Issue 28: every export of personal data is in the log.
    expect(actionLabel('payout.export_pdf')).toBe('Avräkning hämtad (PDF)');
    expect(actionLabel('catalog.download')).toBe('Personlig katalog hämtad (PDF)');
    expect(actionLabel('something.new')).toBe('something.new');
  });

  it('names a target without a group or person by its kind and number', () => {
    expect(targetLabel('webhook_event', '12')).toBe('Webbhändelse nr 12');
    expect(targetLabel('payout', null)).toBe('Avräkning');
  });
});
