/**
 * Swedish alphabetical order for names a person picks from a list: Å, Ä, Ö after Z, case and
 * accents as a Swedish reader expects, digits by value ("Klass 9A" before "Klass 10A"). Sorted
 * here rather than with an SQL collation: PGlite has no ICU collations, and Node's ICU gives the
 * same order on PGlite and PostgreSQL.
 */
const swedish = new Intl.Collator('sv', { numeric: true });

/** Rows by name in Swedish order, equal names by id, so the order never depends on the database. */
export const bySwedishName = <T extends { id: number; name: string }>(rows: T[]): T[] =>
  rows.sort((a, b) => swedish.compare(a.name, b.name) || a.id - b.id);
