import type { HTMLAttributes, TdHTMLAttributes, ThHTMLAttributes } from 'react';
import { cn } from '@/lib/cn';

/** A table that scrolls sideways on a phone instead of squeezing its columns. */
export const Table = ({ className, ...props }: HTMLAttributes<HTMLTableElement>) => (
  <div className="w-full overflow-x-auto rounded-xl border border-line bg-white">
    <table className={cn('w-full border-collapse text-left text-sm', className)} {...props} />
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
