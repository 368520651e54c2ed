/**
 * Copies `text`. Outside a secure context there is no clipboard API: then the field that shows the
 * text is selected and copied the old way.
 */
export async function copyText(text: string, field: HTMLInputElement | HTMLTextAreaElement | null): Promise<void> {
  if (navigator.clipboard?.writeText) {
    await navigator.clipboard.writeText(text);
    return;
  }
  field?.select();
  if (!document.execCommand('copy')) throw new Error('copy refused');
}
