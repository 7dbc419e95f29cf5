/**
 * A tiny HTML templating helper: every interpolated value is escaped unless it is already an
 * `Html` value (the output of another `html` template), so pages cannot be injected into.
 */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const entities: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for use in element content and quoted attribute values (HTML and XML alike). */
export function escapeText(text: string): string {
  return text.replace(/[&<>"']/g, (char) => entities[char] ?? char);
}

type Interpolation = Html | string | number | null | undefined | false | readonly Interpolation[];

function render(value: Interpolation): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map((item: Interpolation) => render(item)).join('');
  return escapeText(String(value));
}

/** `html\`<p>${text}</p>\`` — escapes `text`; nested `html` values and arrays of them pass through. */
export function html(strings: TemplateStringsArray, ...values: Interpolation[]): Html {
  let out = strings[0] ?? '';
  values.forEach((value, index) => {
    out += render(value) + (strings[index + 1] ?? '');
  });
  return new Html(out);
}
