// Built by the admin area's pages (issues 4 and 5); replaced in this session.
export function SellersPage() {
  return <h1 className="text-2xl font-bold">Säljare</h1>;
}
