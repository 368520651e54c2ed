import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { paths } from '@/lib/paths';

export function NotFoundPage() {
  return (
    <div className="mx-auto max-w-md px-4 py-16 text-center">
      <p className="text-5xl font-bold text-brand">404</p>
      <h1 className="mt-4 text-2xl font-bold">Sidan du letar efter finns inte</h1>
      <Button asChild variant="brand" className="mt-8">
        <Link to={paths.home}>Till startsidan</Link>
      </Button>
    </div>
  );
}
