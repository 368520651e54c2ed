// Built by the admin area's pages (issues 4 and 5); replaced in this session.
export function PayoutsPage() {
  return <h1 className="text-2xl font-bold">Avräkningar</h1>;
}
