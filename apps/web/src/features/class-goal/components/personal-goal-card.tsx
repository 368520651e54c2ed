import { useId, useRef, useState, type FormEvent } from 'react';
import { Lock } from 'lucide-react';
import type { TGroupGoal } from '@saljportalen/contract';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { loadContractSchemas } from '@/lib/contract-schemas';
import { formatKronor } from '@/lib/format';
import { refusedFields } from '@/lib/server-field-errors';
import { notify, notifyFailure } from '@/lib/toast';
import { useFocusKept } from '@/lib/use-focus-kept';
import { useSetPersonalGoal } from '../api/set-personal-goal';
import { earnedText, equalShare, percentOf } from '../goal-text';

/**
 * The pupil's own goal (issue 20): opt-in, offered as their share of the class goal, private.
 * Only the pupil's own summary carries it; the server sends it to no classmate. Measured as the
 * class goal is, in commission: `earned` is the pupil's own `total_commission` (decision 038).
 */
export function PersonalGoalCard({
  goal,
  earned,
  classGoal,
  pupils,
}: {
  goal: number | null;
  earned: number;
  classGoal: TGroupGoal | null;
  pupils: number;
}) {
  const titleId = useId();
  const share = classGoal ? equalShare(classGoal.amount, pupils) : null;
  const [editing, setEditing] = useState(false);
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<string>();
  const save = useSetPersonalGoal();
  // The form opens in place of its button and closes back into the card: focus goes to the form's
  // field, then to the card's first button.
  const card = useRef<HTMLDivElement>(null);
  useFocusKept(card, 'input, button');

  const amountInput = useRef<HTMLInputElement>(null);
  const showError = (message: string | undefined) => {
    setError(message);
    if (message) amountInput.current?.focus();
  };

  const submit = async (value: unknown, success: string) => {
    try {
      const { ZPersonalGoalRequestSchema } = await loadContractSchemas();
      const parsed = ZPersonalGoalRequestSchema.safeParse({ amount: value });
      if (!parsed.success) {
        showError(parsed.error.issues[0]?.message);
        return;
      }
      setError(undefined);
      await save.mutateAsync(parsed.data);
      notify.success(success);
      setEditing(false);
    } catch (failure) {
      showError(refusedFields(failure).find((issue) => issue.field === 'amount')?.message);
      notifyFailure('Kunde inte spara ditt mål', failure);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    const kronor = amount.trim() === '' ? undefined : Number(amount.replace(',', '.').replace(/\s/g, ''));
    void submit(kronor, 'Ditt mål är sparat');
  };

  const startEditing = () => {
    void loadContractSchemas().catch(() => undefined);
    setAmount(String(goal ?? share ?? ''));
    setEditing(true);
  };

  const percent = goal ? percentOf(earned, goal) : 0;
  return (
    <Card ref={card} role="region" aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId}>Ditt eget mål</CardTitle>
        <p className="flex items-center gap-1.5 text-sm text-muted">
          <Lock className="size-4 shrink-0" aria-hidden="true" />
          Bara du och dina vårdnadshavare ser ditt mål.
        </p>
      </CardHeader>
      <CardContent className="space-y-3">
        {goal !== null && !editing && (
          <>
            <div
              role="progressbar"
              aria-label="Ditt eget mål"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={Math.min(percent, 100)}
              aria-valuetext={earnedText(earned, goal)}
              className="h-3 overflow-hidden rounded-full border border-slate-500 bg-slate-100"
            >
              <div className="h-full rounded-full bg-brand" style={{ width: `${Math.min(percent, 100)}%` }} />
            </div>
            <p className="text-sm text-ink tabular-nums">
              <span className="font-semibold">
                {formatKronor(earned)} intjänat av {formatKronor(goal)}
              </span>{' '}
              ({percent} %)
            </p>
            <div className="flex flex-wrap gap-2">
              <Button variant="outline" size="sm" onClick={startEditing}>
                Ändra mitt mål
              </Button>
              <Button variant="ghost" size="sm" onClick={() => void submit(null, 'Ditt mål är borttaget')} aria-disabled={save.isPending}>
                Ta bort mitt mål
              </Button>
            </div>
          </>
        )}
        {goal === null && !editing && (
          <>
            <p className="text-sm text-ink">
              {share
                ? `Vill du sätta ett eget mål? Om alla i klassen tjänar in lika mycket blir din del ${formatKronor(share)}.`
                : 'Vill du sätta ett eget mål för det du tjänar in?'}
            </p>
            <Button variant="outline" size="sm" onClick={startEditing}>
              Sätt ett eget mål
            </Button>
          </>
        )}
        {editing && (
          <form onSubmit={onSubmit} noValidate className="space-y-3">
            <Field label="Mitt mål i kronor" error={error} hint={share ? `Din del av klassens mål: ${formatKronor(share)}` : undefined}>
              <Input
                ref={amountInput}
                value={amount}
                onChange={(event) => setAmount(event.target.value)}
                inputMode="numeric"
                autoComplete="off"
              />
            </Field>
            <div className="flex flex-wrap gap-2">
              <Button type="submit" variant="brand" size="sm" aria-disabled={save.isPending}>
                Spara mitt mål
              </Button>
              <Button type="button" variant="ghost" size="sm" onClick={() => setEditing(false)}>
                Avbryt
              </Button>
            </div>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
