import MarkdownIt from 'markdown-it';
import { useMemo } from 'react';

// The Acceptable Use Policy is written in Markdown by admins (GOVERNANCE.md §8). markdown-it with
// `html: false` escapes any HTML in the text (a <script> is shown as text, never run) and its link
// check refuses javascript:, vbscript:, file: and data: links; links open in the same tab.
const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });

/** Markdown rendered safely; headings start at h2 (the page's title is the h1). */
export function renderPolicyMarkdown(text: string): string {
  return markdown.render(text.replace(/^# /gm, '## '));
}

/** The policy text, rendered. */
export function PolicyMarkdown({ text }: { text: string }) {
  const html = useMemo(() => renderPolicyMarkdown(text), [text]);
  // Safe: markdown-it with html disabled escapes every tag the text holds.
  return <div className="acceptable-use-policy" dangerouslySetInnerHTML={{ __html: html }} />;
}
