import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { formatCount } from '@/lib/format';

/** Previous/next over a list the server pages; hidden when everything fits on one page. */
export function AdminPager({
  offset,
  limit,
  total,
  onOffsetChange,
  label,
}: {
  offset: number;
  limit: number;
  total: number;
  onOffsetChange: (offset: number) => void;
  label: string;
}) {
  if (total <= limit && offset === 0) return null;
  const first = total === 0 ? 0 : offset + 1;
  const last = Math.min(offset + limit, total);
  return (
    <nav aria-label={label} className="mt-4 flex flex-wrap items-center justify-between gap-3">
      <p className="text-sm text-muted" aria-live="polite">
        Visar {formatCount(first)}–{formatCount(last)} av {formatCount(total)}
      </p>
      <div className="flex gap-2">
        <Button variant="outline" size="sm" disabled={offset === 0} onClick={() => onOffsetChange(Math.max(0, offset - limit))}>
          <ChevronLeft aria-hidden="true" />
          Föregående
        </Button>
        <Button variant="outline" size="sm" disabled={offset + limit >= total} onClick={() => onOffsetChange(offset + limit)}>
          Nästa
          <ChevronRight aria-hidden="true" />
        </Button>
      </div>
    </nav>
  );
}
