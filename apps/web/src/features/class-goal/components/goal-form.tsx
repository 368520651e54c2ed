import { useRef, useState, type FormEvent } from 'react';
import type { TGroupGoal } from '@saljportalen/contract';
import { GOAL_PURPOSE_MAX_LENGTH, stockholmToday } from '@saljportalen/contract/plain';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { loadContractSchemas } from '@/lib/contract-schemas';
import { refusedFields } from '@/lib/server-field-errors';
import { notify, notifyFailure } from '@/lib/toast';
import { useSetGroupGoal } from '../api/set-group-goal';

/** The fields in the order they stand in the form: focus goes to the first that is wrong. */
const FIELD_ORDER = ['purpose', 'amount', 'ends_on'] as const;
type FieldName = (typeof FIELD_ORDER)[number];
type FieldErrors = Partial<Record<FieldName, string>>;

/**
 * Sets, changes or removes a group's class goal (issue 20): on the dashboard's group card for the
 * group admin, on the admin group detail for a superadmin. The form checks with the contract's
 * schema, so it and the server never disagree.
 */
export function GoalForm({ groupId, goal, onSaved }: { groupId: number; goal: TGroupGoal | null; onSaved?: () => Promise<unknown> }) {
  const [amount, setAmount] = useState(goal ? String(goal.amount) : '');
  const [purpose, setPurpose] = useState(goal?.purpose ?? '');
  const [endsOn, setEndsOn] = useState(goal?.ends_on ?? '');
  const [errors, setErrors] = useState<FieldErrors>({});
  const save = useSetGroupGoal({ onSaved });
  const inputs = {
    purpose: useRef<HTMLInputElement>(null),
    amount: useRef<HTMLInputElement>(null),
    ends_on: useRef<HTMLInputElement>(null),
  };
  const showErrors = (found: FieldErrors) => {
    setErrors(found);
    const first = FIELD_ORDER.find((name) => found[name]);
    if (first) inputs[first].current?.focus();
  };

  const submit = async (request: unknown, success: string) => {
    try {
      const { ZGroupGoalRequestSchema } = await loadContractSchemas();
      const parsed = ZGroupGoalRequestSchema.safeParse(request);
      if (!parsed.success) {
        const found: FieldErrors = {};
        for (const issue of parsed.error.issues) found[issue.path[0] as FieldName] ??= issue.message;
        showErrors(found);
        return;
      }
      setErrors({});
      await save.mutateAsync(parsed.data);
      // The field shows what was stored: the contract's rule (which the server applies too) trimmed it.
      if (parsed.data.purpose !== undefined) setPurpose(parsed.data.purpose ?? '');
      notify.success(success);
    } catch (error) {
      const refused = refusedFields(error).filter((issue) => (FIELD_ORDER as readonly string[]).includes(issue.field));
      showErrors(Object.fromEntries(refused.map((issue) => [issue.field, issue.message])));
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
          ref={inputs.purpose}
          value={purpose}
          onChange={(event) => setPurpose(event.target.value)}
          maxLength={GOAL_PURPOSE_MAX_LENGTH}
          placeholder="Klassresa till Liseberg"
          autoComplete="off"
        />
      </Field>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Mål i kronor" error={errors.amount}>
          <Input
            ref={inputs.amount}
            value={amount}
            onChange={(event) => setAmount(event.target.value)}
            inputMode="numeric"
            autoComplete="off"
          />
        </Field>
        <Field label="Sista dag" error={errors.ends_on}>
          <Input
            ref={inputs.ends_on}
            type="date"
            value={endsOn}
            min={stockholmToday()}
            onChange={(event) => setEndsOn(event.target.value)}
          />
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
