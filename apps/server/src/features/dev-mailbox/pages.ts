import { html, type Html } from '../../platform/html';
import { renderDocument } from '../../http/server-page';
import type { findMessage, listMessages } from '../../store/outbox';

type Summary = Awaited<ReturnType<typeof listMessages>>[number];
type Message = NonNullable<Awaited<ReturnType<typeof findMessage>>>;

function layout(hospitalName: string, heading: string, body: Html): string {
  return renderDocument({
    title: `${heading} | ${hospitalName} PRA Portal`,
    body: html`<header class="bg-dark text-white">
        <div class="container py-3"><span class="fs-5">PRA Portal development mailbox</span></div>
      </header>
      <main class="container py-4">
        <h1 class="h3 mb-3">${heading}</h1>
        ${body}
      </main>`,
  });
}

/** Plain text with its http(s) addresses as links; everything else escaped. */
export function linkify(text: string): Html {
  const parts = text.split(/(https?:\/\/[^\s<>"']+)/g);
  return html`${parts.map((part, i) => (i % 2 === 1 ? html`<a href="${part}">${part}</a>` : part))}`;
}

const time = (date: Date | string) => new Date(date).toISOString().replace('T', ' ').slice(0, 19) + ' UTC';

export function mailboxPage(hospitalName: string, messages: Summary[]): string {
  const body =
    messages.length === 0
      ? html`<p>No messages yet.</p>`
      : html`<p>Every mail the portal queued, newest first. Standalone mode only.</p>
          <div class="table-responsive">
            <table class="table table-striped align-middle">
              <thead>
                <tr>
                  <th scope="col">To</th>
                  <th scope="col">Subject</th>
                  <th scope="col">Time</th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                ${messages.map(
                  (m) =>
                    html`<tr>
                      <td>${m.recipient}</td>
                      <td><a href="/dev/mailbox/${m.id}">${m.subject}</a></td>
                      <td>${time(m.created_at)}</td>
                      <td>${m.status}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`;
  return layout(hospitalName, 'Mailbox', body);
}

export function messagePage(hospitalName: string, m: Message): string {
  const body = html`<p><a href="/dev/mailbox">Back to the mailbox</a></p>
    <dl class="row">
      <dt class="col-sm-2">To</dt>
      <dd class="col-sm-10">${m.recipient}</dd>
      <dt class="col-sm-2">Subject</dt>
      <dd class="col-sm-10">${m.subject}</dd>
      <dt class="col-sm-2">Time</dt>
      <dd class="col-sm-10">${time(m.created_at)}</dd>
      <dt class="col-sm-2">Status</dt>
      <dd class="col-sm-10">${m.status}${m.attempts > 0 ? ` (${m.attempts} failed attempts)` : ''}</dd>
    </dl>
    <h2 class="h5">Message</h2>
    <pre class="border rounded p-3 bg-light text-wrap">${linkify(m.text_body)}</pre>`;
  return layout(hospitalName, m.subject || 'Message', body);
}

export function missingPage(hospitalName: string): string {
  return layout(
    hospitalName,
    'Message not found',
    html`<p>There is no such message. <a href="/dev/mailbox">Back to the mailbox</a></p>`,
  );
}
