import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { Filter } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input, Select } from '@/components/ui/input';
import type { PayoutFilters } from '../api/list-payouts';
import { FormCombobox } from '@/components/ui/form-combobox';
import { groupChoice, groupsHint, type GroupOption, type GroupOptionsState } from '../../groups';

const payoutFiltersSchema = z
  .object({ status: z.enum(['all', 'draft', 'paid']), groupId: z.string(), from: z.string(), to: z.string() })
  .refine((values) => !values.from || !values.to || values.from <= values.to, {
    message: 'Från-datum kan inte vara efter Till-datum.',
    path: ['to'],
  });

/** spec §2 Payouts: status (all, draft, paid), group, from, to and a filter button. */
export function PayoutFiltersForm({
  initial,
  groups,
  groupsState,
  onApply,
}: {
  initial: PayoutFilters;
  groups: GroupOption[];
  groupsState: GroupOptionsState;
  onApply: (filters: PayoutFilters) => void;
}) {
  const form = useForm<PayoutFilters>({ resolver: zodResolver(payoutFiltersSchema), defaultValues: initial });
  const { errors } = form.formState;
  const groupChoices = useMemo(() => [{ value: '', label: 'Alla grupper' }, ...groups.map(groupChoice)], [groups]);
  return (
    <form
      onSubmit={form.handleSubmit(onApply)}
      noValidate
      aria-label="Filtrera avräkningar"
      className="grid gap-4 rounded-xl border border-line bg-white p-4 sm:grid-cols-2 lg:grid-cols-[repeat(4,minmax(0,1fr))_auto] lg:items-start"
    >
      <Field label="Status">
        <Select {...form.register('status')}>
          <option value="all">Alla</option>
          <option value="draft">Utkast</option>
          <option value="paid">Betalda</option>
        </Select>
      </Field>
      <FormCombobox
        control={form.control}
        name="groupId"
        label="Grupp"
        hint={groupsHint(groupsState)}
        options={groupChoices}
        listLabel="Grupper"
        fallbackLabel={groupsState === 'loading' ? 'Hämtar grupper...' : `Grupp ${form.watch('groupId')}`}
      />
      <Field label="Från" error={errors.from?.message}>
        <Input type="date" {...form.register('from')} />
      </Field>
      <Field label="Till" error={errors.to?.message}>
        <Input type="date" {...form.register('to')} />
      </Field>
      {/* Lined up with the inputs, below their labels. */}
      <div className="sm:col-span-2 lg:col-span-1 lg:pt-[1.625rem]">
        <Button type="submit" variant="outline" className="w-full lg:w-auto">
          <Filter aria-hidden="true" />
          Filtrera
        </Button>
      </div>
    </form>
  );
}
