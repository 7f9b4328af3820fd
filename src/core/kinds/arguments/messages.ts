/** What the kinds of argument say of a value, worded once. */

/** A value quoted back in a message, cut to a length that reads. */
export function clipForMessage(text: string, max = 60): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A form field's items: split on new lines and commas, blanks dropped. */
export function itemsOf(text: string): string[] {
  return text
    .split(/[\n,]/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}
