import { unprintableCharacters } from '@saljportalen/contract/plain';

const quoted = (characters: string[]) => characters.map((character) => `”${character}”`);
const listed = (items: string[]) => (items.length === 1 ? items[0]! : `${items.slice(0, -1).join(', ')} och ${items.at(-1)!}`);

/**
 * What a field where a name buyers or a PDF see is chosen says of characters the PDFs' fonts cannot
 * draw (decision 074): they print as an empty box, and the name is saved anyway, since a name is as
 * it is written. Undefined when every character prints.
 */
export function unprintableWarning(value: string | null | undefined): string | undefined {
  const characters = unprintableCharacters(value ?? '');
  if (characters.length === 0) return undefined;
  const shown = quoted(characters.slice(0, 5));
  if (characters.length > 5) shown.push('fler');
  return characters.length === 1
    ? `Tecknet ${shown[0]} kan inte skrivas ut i katalogen och på andra utskrifter och blir en ruta där. Namnet sparas ändå.`
    : `Tecknen ${listed(shown)} kan inte skrivas ut i katalogen och på andra utskrifter och blir rutor där. Namnet sparas ändå.`;
}
