import { useId } from 'react';
import type { TProfileResponse, TUpdateNotificationsRequest } from '@saljportalen/contract';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { notify, notifyFailure } from '@/lib/toast';
import { useUpdateNotifications } from '../api/update-notifications';

function OptIn({
  label,
  hint,
  checked,
  onChange,
}: {
  label: string;
  hint: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-start gap-3">
      <input
        id={id}
        type="checkbox"
        className="mt-0.5 size-5 shrink-0 accent-brand"
        aria-describedby={`${id}-hint`}
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
      />
      <div>
        <label htmlFor={id} className="text-sm font-medium text-ink">
          {label}
        </label>
        <p id={`${id}-hint`} className="text-sm text-muted">
          {hint}
        </p>
      </div>
    </div>
  );
}

/**
 * Issue 20: the mail a person opts in to. Each box saves when it changes. The weekly summary is
 * shown to group admins only (the server refuses it to anyone else).
 */
export function NotificationsForm({ notifications }: { notifications: TProfileResponse['notifications'] }) {
  const titleId = useId();
  const update = useUpdateNotifications();
  const save = async (change: TUpdateNotificationsRequest) => {
    try {
      await update.mutateAsync(change);
      notify.success('Inställning uppdaterad');
    } catch (error) {
      notifyFailure('Kunde inte uppdatera inställningen', error);
    }
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle id={titleId}>E-postnotiser</CardTitle>
      </CardHeader>
      <CardContent>
        <fieldset aria-labelledby={titleId} className="space-y-4">
          <OptIn
            label="Mejla mig när jag säljer"
            hint="Högst ett mejl i timmen med hur mycket din länk har sålt, aldrig mellan 21 och 07. Vem som köpte står aldrig med. Är du under 13 år går mejlet till din vårdnadshavare."
            checked={notifications.sale_mail}
            onChange={(checked) => save({ sale_mail: checked })}
          />
          {notifications.weekly_summary_offered && (
            <OptIn
              label="Veckosammanfattning för mina grupper"
              hint="Varje måndag morgon: förra veckans försäljning, hur långt ni har kommit mot målet och hur många som har sålt. Inga elever nämns."
              checked={notifications.weekly_summary}
              onChange={(checked) => save({ weekly_summary: checked })}
            />
          )}
        </fieldset>
      </CardContent>
    </Card>
  );
}
