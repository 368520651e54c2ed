import type { HTMLAttributes, TdHTMLAttributes, ThHTMLAttributes } from 'react';
import { cn } from '@/lib/cn';
import { formatKronor } from '@/lib/format';

/**
 * A table that scrolls sideways on a phone instead of squeezing its columns. The scrolling box
 * takes keyboard focus so it can be scrolled without a mouse (WCAG 2.1.1), and is `relative` so
 * screen-reader-only texts inside stay in it instead of widening the page. `label` names the box.
 *
 * `cards`: on a phone every row is a card instead (styles.css `.table-cards`), so no column or
 * button hides off to the side (issue 19); a cell's `data-label` names its figure there, a cell
 * with `data-wide` (a row's action) takes the card's whole width, as its first cell does.
 */
export const Table = ({ className, label, cards, ...props }: HTMLAttributes<HTMLTableElement> & { label?: string; cards?: boolean }) => (
  <div
    className={cn(
      'relative w-full rounded-xl',
      cards ? 'md:overflow-x-auto md:border md:border-line md:bg-white' : 'overflow-x-auto border border-line bg-white',
    )}
    tabIndex={0}
    role={label ? 'region' : undefined}
    aria-label={label}
  >
    <table className={cn('w-full border-collapse text-left text-sm', cards && 'table-cards', className)} {...props} />
  </div>
);
export const THead = (props: HTMLAttributes<HTMLTableSectionElement>) => <thead className="bg-slate-50 text-muted" {...props} />;
export const TBody = (props: HTMLAttributes<HTMLTableSectionElement>) => <tbody className="divide-y divide-line" {...props} />;
export const Tr = (props: HTMLAttributes<HTMLTableRowElement>) => <tr {...props} />;
export const Th = ({ className, ...props }: ThHTMLAttributes<HTMLTableCellElement>) => (
  <th scope="col" className={cn('px-4 py-3 font-semibold', className)} {...props} />
);
export const Td = ({ className, ...props }: TdHTMLAttributes<HTMLTableCellElement>) => (
  <td className={cn('px-4 py-3', className)} {...props} />
);

/** A cell with an amount in kronor as the API gives it (formatKronor), right-aligned with even digits, on one line. */
export const KronorTd = ({
  kronor,
  className,
  ...props
}: Omit<TdHTMLAttributes<HTMLTableCellElement>, 'children'> & { kronor: number | string }) => (
  <Td className={cn('text-right tabular-nums whitespace-nowrap', className)} {...props}>
    {formatKronor(kronor)}
  </Td>
);
