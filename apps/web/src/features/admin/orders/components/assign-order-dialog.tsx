import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { UserCheck } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { ApiError } from '@/lib/api-client';
import { formatDateTime, formatKronor } from '@/lib/format';
import { notify } from '@/lib/toast';
import { notifyFailure, orderLabel, parseId } from '../../admin-page-helpers';
import { FormCombobox } from '@/components/ui/form-combobox';
import { groupChoice, groupOptionsState, groupsHint, useGroupMembers, useGroupOptions } from '../../groups';
import { useAssignOrder } from '../api/assign-order';
import type { UnattributedOrder } from '../api/list-unattributed-orders';

/** spec §8 has no text of its own for this change; its general one for a failed update in the admin area. */
const ASSIGN_FAILED = 'Misslyckades att uppdatera';

/** The pickers' values: a group id and a membership id, as the comboboxes hold them. */
const assignFormSchema = z.object({
  group: z.string().refine((value) => parseId(value) !== undefined, 'Välj en grupp'),
  member: z.string().refine((value) => parseId(value) !== undefined, 'Välj en säljare'),
});
type AssignFormValues = z.infer<typeof assignFormSchema>;

/**
 * Chooses the group, then the person in it, and gives them the order: from then on it counts in
 * that seller's and that group's figures. Opened for one order at a time.
 */
export function AssignOrderDialog({ order, onClose }: { order: UnattributedOrder | undefined; onClose: () => void }) {
  return (
    <Dialog
      open={order !== undefined}
      onOpenChange={(open) => !open && onClose()}
      title={order ? `Tilldela order ${orderLabel(order)}` : 'Tilldela order'}
      description={
        order
          ? `${formatDateTime(order.ordered_at)} · ${formatKronor(order.subtotal_incl_vat)} inkl. moms. Välj grupp och säljare.`
          : undefined
      }
    >
      {/* A fresh form per order. */}
      {order && <AssignOrderForm key={order.order_id} order={order} onDone={onClose} />}
    </Dialog>
  );
}

function AssignOrderForm({ order, onDone }: { order: UnattributedOrder; onDone: () => void }) {
  const form = useForm<AssignFormValues>({ resolver: zodResolver(assignFormSchema), defaultValues: { group: '', member: '' } });
  const { errors } = form.formState;
  const groups = useGroupOptions();
  const groupId = parseId(form.watch('group'));
  const members = useGroupMembers(groupId);
  const assign = useAssignOrder();

  const groupChoices = useMemo(() => (groups.data ?? []).map(groupChoice), [groups.data]);
  const memberChoices = useMemo(
    () =>
      (members.data ?? []).map((member) => ({
        value: String(member.membership_id),
        label: `${member.full_name}${member.role === 'admin' ? ' (Admin)' : ''}${member.email ? ` · ${member.email}` : ''}`,
      })),
    [members.data],
  );

  const memberHint =
    groupId === undefined
      ? undefined
      : members.isError
        ? 'Kunde inte hämta personerna i gruppen. Försök igen.'
        : members.data?.length === 0
          ? 'Gruppen har inga personer ännu.'
          : undefined;

  const onSubmit = form.handleSubmit(async (values) => {
    const membershipId = parseId(values.member)!;
    try {
      const { order: assigned } = await assign.mutateAsync({ orderId: order.order_id, membershipId });
      notify.success('Order tilldelad', `${orderLabel(order)} räknas nu till ${assigned.seller_name} i ${assigned.group_name}.`);
      onDone();
    } catch (error) {
      notifyFailure(ASSIGN_FAILED, error);
      // Gone or already assigned: the reloaded list no longer has it, so there is nothing left to choose.
      if (error instanceof ApiError && (error.status === 404 || error.status === 409)) onDone();
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <FormCombobox
        control={form.control}
        name="group"
        label="Grupp"
        error={errors.group?.message}
        hint={groupsHint(groupOptionsState(groups))}
        options={groupChoices}
        listLabel="Grupper"
        placeholder={groups.isPending ? 'Hämtar grupper...' : 'Sök och välj grupp'}
        onChosen={() => {
          // Another group's people: the chosen one is no longer among them.
          form.setValue('member', '');
          form.clearErrors();
        }}
      />
      <FormCombobox
        control={form.control}
        name="member"
        label="Säljare"
        error={errors.member?.message}
        hint={memberHint}
        options={memberChoices}
        listLabel="Personer i gruppen"
        disabled={groupId === undefined || members.isPending}
        placeholder={groupId === undefined ? 'Välj först en grupp' : members.isPending ? 'Hämtar personer...' : 'Sök och välj säljare'}
      />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="outline" onClick={onDone}>
          Avbryt
        </Button>
        <Button type="submit" variant="brand" disabled={assign.isPending}>
          <UserCheck aria-hidden="true" />
          {assign.isPending ? 'Tilldelar...' : 'Tilldela'}
        </Button>
      </div>
    </form>
  );
}
