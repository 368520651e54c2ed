import { Skeleton } from '@/components/ui/skeleton';
import { Td, Tr } from '@/components/ui/table';

/** Placeholder rows while a table loads; hidden from screen readers, which hear the page's status text instead. */
export function TableSkeletonRows({ rows, columns }: { rows: number; columns: number }) {
  return (
    <>
      {Array.from({ length: rows }, (_, row) => (
        <Tr key={row} aria-hidden="true" data-testid="skeleton-row">
          {Array.from({ length: columns }, (_, column) => (
            <Td key={column}>
              <Skeleton className={column === 0 ? 'h-4 w-40' : 'h-4 w-16'} />
            </Td>
          ))}
        </Tr>
      ))}
    </>
  );
}

/** The text a screen reader hears while a page or table loads. */
export function LoadingStatus({ children }: { children: string }) {
  return (
    <p role="status" className="sr-only">
      {children}
    </p>
  );
}
