/** What each audit action is called on 'Händelselogg'; an action not listed here shows as recorded. */
const ACTION_LABELS: Record<string, string> = {
  'group.create': 'Grupp skapad',
  'group.rename': 'Grupp omdöpt',
  'group.archive': 'Grupp arkiverad',
  'group.reactivate': 'Grupp återaktiverad',
  'group.add_user': 'Person tillagd i grupp',
  'group.export': 'Grupp exporterad (CSV)',
  'payout.export_csv': 'Avräkningar exporterade (CSV)',
  'payout.export_pdf': 'Avräkning hämtad (PDF)',
  'account.export': 'Egna uppgifter nedladdade',
  'catalog.download': 'Personlig katalog hämtad (PDF)',
  'group.leaderboard': 'Topplistans inställning ändrad',
  'group.goal': 'Klassens mål ändrat',
  'group.payout_account': 'Utbetalningsuppgifter ändrade',
  'membership.protected_identity': 'Skyddade personuppgifter ändrade',
  'user.public_name': 'Namn för köpare valt av vårdnadshavare',
  'payout.create': 'Avräkning skapad',
  'payout.mark_paid': 'Avräkning markerad som betald',
  'demo.remove': 'Demodata borttagen (npm run remove-demo-data)',
  'order.assign': 'Order tilldelad säljare',
  'order.move': 'Försäljning flyttad till en annan elev',
  'webhook.replay': 'Webbhook körd igen',
  'account.erase': 'Konto raderat',
  'guardian.approve': 'Vårdnadshavare godkände barnets konto',
  'guardian.decline': 'Vårdnadshavare avböjde barnets konto',
  'guardian.withdraw': 'Vårdnadshavare återkallade samtycket',
  'group.roster_import': 'Elever tillagda från klasslista',
  'group.sign_in_slips': 'Inloggningslappar utskrivna (PDF)',
  'user.slip_password': 'Lösenord valt med inloggningslapp',
  'user.password_by_guardian': 'Lösenord ändrat av vårdnadshavare',
};

export const actionLabel = (action: string): string => ACTION_LABELS[action] ?? action;

/** What an entry's target is called when it names no group or person: "Webbhändelse nr 12". */
const TARGET_LABELS: Record<string, string> = {
  group: 'Grupp',
  user: 'Person',
  membership: 'Medlemskap',
  payout: 'Avräkning',
  order: 'Order',
  webhook_event: 'Webbhändelse',
  demo_data: 'Demodata',
};

export const targetLabel = (type: string, id: string | null): string => {
  const name = TARGET_LABELS[type] ?? type;
  return id ? `${name} nr ${id}` : name;
};
