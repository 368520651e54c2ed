import { Card } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { cn } from '@/lib/cn';

export interface Stat {
  label: string;
  value: string;
  /** A line under the value that says what it means ('Väntande': why it is not paid yet). */
  note?: string;
}

/** Figures as a description list, so each value is read out with its label. */
export function StatList({ stats, className }: { stats: Stat[]; className?: string }) {
  return (
    <dl className={cn('grid gap-3', className)}>
      {stats.map((stat) => (
        <Card key={stat.label} className="p-4">
          <dt className="text-sm text-muted">{stat.label}</dt>
          <dd className="mt-1 text-2xl font-bold tabular-nums text-ink">{stat.value}</dd>
          {stat.note && <dd className="mt-1 text-sm text-muted">{stat.note}</dd>}
        </Card>
      ))}
    </dl>
  );
}

export function StatListSkeleton({ count, className }: { count: number; className?: string }) {
  return (
    <div className={cn('grid gap-3', className)}>
      {Array.from({ length: count }, (_, index) => (
        <Card key={index} className="p-4">
          <Skeleton className="h-4 w-24" />
          <Skeleton className="mt-2 h-8 w-32" />
        </Card>
      ))}
    </div>
  );
}
