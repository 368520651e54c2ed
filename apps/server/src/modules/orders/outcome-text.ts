/** The lines a webhook added, as its outcome says it to the superadmin ('1 ny rad', '2 nya rader'). */
export const newLinesText = (count: number): string => `${count} ${count === 1 ? 'ny rad' : 'nya rader'}`;
