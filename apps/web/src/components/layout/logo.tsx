import { Link } from 'react-router';
import { paths } from '@/lib/paths';

export function Logo() {
  return (
    <Link to={paths.home} className="flex items-center gap-2 rounded-md font-bold text-brand">
      <img src="/favicon.svg" alt="" className="size-8" width={32} height={32} />
      <span className="text-lg">Säljportalen</span>
    </Link>
  );
}
