import { z } from 'zod';
import { inputText } from './text';
import { textFieldMessages } from './plain-texts';
export { textFieldMessages } from './plain-texts';

/** Longest name, job title or other one-line text field (spec section 5). */
export const TEXT_MAX_LENGTH = 255;
/** Longest justification or comment. */
export const COMMENT_MAX_LENGTH = 2000;

/**
 * Characters a typed name or comment never needs and that can disguise what a reader sees:
 * control characters (CR, LF and tab included), line and paragraph separators, bidirectional
 * marks, overrides and isolates (U+200E/F, U+202A–E, U+2066–9), and zero-width characters
 * (U+200B–D, U+2060–4, U+FEFF). Such text ends up in BRMs' mails and lists.
 */
const FORBIDDEN = /[\p{Cc}\p{Zl}\p{Zp}\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/u;

const FORBIDDEN_ALL = new RegExp(FORBIDDEN.source, 'gu');

/**
 * The text with each forbidden character written out as `\u{202e}`: what is stored or logged
 * where such a value was refused (an audit event's username), so no reader sees it act.
 */
export function escapeInvisible(value: string): string {
  return value.replace(FORBIDDEN_ALL, (ch) => `\\u{${ch.codePointAt(0)!.toString(16).padStart(4, '0')}}`);
}

/** True when the text holds none of the forbidden characters. */
export function isPlainText(value: string): boolean {
  return !FORBIDDEN.test(value);
}

/**
 * The one schema of every person-typed text field (names, job title, justifications, comments):
 * trimmed; refused — never cut — when longer than `max`; refused when it holds control, bidi or
 * zero-width characters. `required` adds the spec's 'Required'.
 */
/* @__NO_SIDE_EFFECTS__ */
export function plainText({
  max = TEXT_MAX_LENGTH,
  required = true,
}: { max?: number; required?: boolean } = {}) {
  // NUL is a control character: refused below with the field message (inputText's NUL rule is not needed).
  const base = z.string().trim();
  return (required ? base.min(1, textFieldMessages.required) : base)
    .max(max, textFieldMessages.tooLong(max))
    .refine(isPlainText, textFieldMessages.invalidCharacters);
}

/**
 * Text of several paragraphs (the system message): like `plainText`, but line feeds are allowed;
 * carriage returns become line feeds. Optional; refused when longer than `max`.
 */
/* @__NO_SIDE_EFFECTS__ */
export function multilineText(max: number) {
  return z
    .string()
    .transform((value) => value.replace(/\r\n?/g, '\n').trim())
    .pipe(
      z
        .string()
        .max(max, textFieldMessages.tooLong(max))
        .refine((value) => value.split('\n').every(isPlainText), textFieldMessages.invalidCharacters),
    );
}

/**
 * A name (a person's, an organization's): plain text that does not start like a spreadsheet
 * formula (= + - @), since names end up in CSV exports and lists opened in spreadsheets.
 */
/* @__NO_SIDE_EFFECTS__ */
export function nameText(max = TEXT_MAX_LENGTH) {
  return plainText({ max }).refine((value) => !/^[=+\-@]/.test(value), textFieldMessages.formula);
}

/** An email address (registration, Terminate Vendors' CSV, the external IdP's mail attribute). */
export const emailAddress = inputText().trim().max(255, 'Max 255 characters').pipe(z.email('Invalid email'));

/** Given name, family name. */
export const personName = nameText();
/** Job title (may be empty). */
export const jobTitle = plainText({ required: false });
/** A justification or comment (may be empty; a rejection requires one, see approveOrDenyBody). */
export const commentText = plainText({ max: COMMENT_MAX_LENGTH, required: false });

/** The first message a field schema gives for `value`, or undefined when it passes. */
export function fieldError(schema: z.ZodType, value: unknown): string | undefined {
  const result = schema.safeParse(value);
  return result.success ? undefined : result.error.issues[0]?.message;
}
