/** "Elsa Åberg" → "Elsa"; the greeting's name (spec §2). */
export const firstName = (fullName: string): string => fullName.trim().split(/\s+/)[0] ?? '';
