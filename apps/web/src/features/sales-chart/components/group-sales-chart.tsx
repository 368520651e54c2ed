import { useMemo } from 'react';
import { Skeleton } from '@/components/ui/skeleton';
import { useGroupSalesPerDay } from '../api/group-sales-per-day';
import { perDayModel } from '../chart-model';
import { SalesChart } from './sales-chart';

/** The dashboard's group card: the class's sales over its campaign against its goal (issue 20). */
export function GroupSalesChart({ groupId }: { groupId: number }) {
  const sales = useGroupSalesPerDay(groupId);
  const model = useMemo(() => (sales.data ? perDayModel(sales.data) : undefined), [sales.data]);
  if (!model) {
    // A chart that could not load leaves the card's figures as they are: they say the same in numbers.
    if (sales.isError) return null;
    return <Skeleton className="h-[260px] w-full" />;
  }
  return <SalesChart heading="Försäljning över tid" model={model} />;
}
