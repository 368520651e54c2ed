import { useState, type FormEvent } from 'react';
import type { TGroupGoal } from '@saljportalen/contract';
import { GOAL_PURPOSE_MAX_LENGTH, stockholmToday } from '@saljportalen/contract/plain';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { loadContractSchemas } from '@/lib/contract-schemas';
import { notify, notifyFailure } from '@/lib/toast';
import { useSetGroupGoal } from '../api/set-group-goal';

type FieldName = 'amount' | 'purpose' | 'ends_on';

/**
 * Sets, changes or removes a group's class goal (issue 20): on the dashboard's group card for the
 * group admin, on the admin group detail for a superadmin. The form checks with the contract's
 * schema, so it and the server never disagree.
 */
export function GoalForm({ groupId, goal, onSaved }: { groupId: number; goal: TGroupGoal | null; onSaved?: () => Promise<unknown> }) {
  const [amount, setAmount] = useState(goal ? String(goal.amount) : '');
  const [purpose, setPurpose] = useState(goal?.purpose ?? '');
  const [endsOn, setEndsOn] = useState(goal?.ends_on ?? '');
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const save = useSetGroupGoal({ onSaved });

  const submit = async (request: unknown, success: string) => {
    try {
      const { ZGroupGoalRequestSchema } = await loadContractSchemas();
      const parsed = ZGroupGoalRequestSchema.safeParse(request);
      if (!parsed.success) {
        const found: Partial<Record<FieldName, string>> = {};
        for (const issue of parsed.error.issues) found[issue.path[0] as FieldName] ??= issue.message;
        setErrors(found);
        return;
      }
      setErrors({});
      await save.mutateAsync(parsed.data);
      notify.success(success);
    } catch (error) {
      notifyFailure('Kunde inte spara målet', error);
    }
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending) return;
    const kronor = amount.trim() === '' ? undefined : Number(amount.replace(',', '.').replace(/\s/g, ''));
    void submit({ group_id: groupId, amount: kronor, purpose, ends_on: endsOn || undefined }, goal ? 'Målet är ändrat' : 'Målet är sparat');
  };

  const onRemove = () => {
    if (save.isPending) return;
    void submit({ group_id: groupId, amount: null }, 'Målet är borttaget').then(() => {
      setAmount('');
      setPurpose('');
      setEndsOn('');
    });
  };

  return (
    // The schemas are asked for as soon as the form is used, so that they are there when it is sent.
    <form
      onSubmit={onSubmit}
      onFocus={() => void loadContractSchemas().catch(() => undefined)}
      noValidate
      className="space-y-3"
      aria-label="Klassens mål"
    >
      <Field label="Vad samlar ni till?" error={errors.purpose}>
        <Input
          value={purpose}
          onChange={(event) => setPurpose(event.target.value)}
          maxLength={GOAL_PURPOSE_MAX_LENGTH}
          placeholder="Klassresa till Liseberg"
          autoComplete="off"
        />
      </Field>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Mål i kronor" error={errors.amount}>
          <Input value={amount} onChange={(event) => setAmount(event.target.value)} inputMode="numeric" autoComplete="off" />
        </Field>
        <Field label="Sista dag" error={errors.ends_on}>
          <Input type="date" value={endsOn} min={stockholmToday()} onChange={(event) => setEndsOn(event.target.value)} />
        </Field>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" variant="brand" aria-disabled={save.isPending}>
          {goal ? 'Spara ändringen' : 'Spara målet'}
        </Button>
        {goal && (
          <Button type="button" variant="outline" onClick={onRemove} aria-disabled={save.isPending}>
            Ta bort målet
          </Button>
        )}
      </div>
    </form>
  );
}
