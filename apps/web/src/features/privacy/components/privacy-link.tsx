import { Link } from 'react-router';
import { paths } from '@/lib/paths';

/** 'Så hanterar vi dina uppgifter': the privacy page, from a form that asks for personal data. */
export function PrivacyLink() {
  return (
    <p className="mt-4 text-sm text-muted">
      Vill du veta vad vi sparar och varför?{' '}
      <Link to={paths.privacy} className="font-medium text-brand underline underline-offset-4">
        Läs om integritet
      </Link>
    </p>
  );
}
