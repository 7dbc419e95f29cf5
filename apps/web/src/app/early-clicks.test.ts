import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clickedEarly, holdEarlyClicks } from './early-clicks';

/** public/load-after-paint.js as the drawn page runs it, its loading left out (no frame comes). */
const loadAfterPaint = readFileSync(join(import.meta.dirname, '../../public/load-after-paint.js'), 'utf8');
function runLoadAfterPaint() {
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the page's own script, as the browser runs it
  new Function('requestAnimationFrame', loadAfterPaint)(() => 0);
}

/** A drawn page: a Log Out, a menu toggle and a link in #root, a button outside it. */
function drawnPage() {
  document.body.innerHTML = `
    <div id="root">
      <button type="button" id="toggle">Toggle navigation</button>
      <button type="button" data-sign-out id="log-out"><span>Log Out</span></button>
      <a href="#users" id="users">Users</a>
    </div>
    <button type="button" id="outside">Outside</button>`;
  const root = document.getElementById('root')!;
  const byId = (id: string) => document.getElementById(id)!;
  return {
    root,
    toggle: byId('toggle'),
    logOut: byId('log-out'),
    link: byId('users'),
    outside: byId('outside'),
  };
}

const takeOvers: Array<() => void> = [];
afterEach(() => {
  // The page's listener stops at a takeover: end each test's page with one.
  for (const end of takeOvers.splice(0)) end();
  document.body.innerHTML = '';
});

describe('holdEarlyClicks', () => {
  it('signs out once for a Log Out clicked before its code arrived, and again for none after', () => {
    runLoadAfterPaint();
    const page = drawnPage();
    page.logOut.querySelector('span')!.click();
    page.logOut.click();
    expect(page.logOut.hasAttribute(clickedEarly)).toBe(true);
    const signOut = vi.fn();
    const early = holdEarlyClicks(page.root, signOut);
    takeOvers.push(() => early.takeOver(() => undefined));
    expect(signOut).toHaveBeenCalledTimes(1);
    expect(page.logOut.hasAttribute(clickedEarly)).toBe(false);
    page.logOut.click();
    expect(signOut).toHaveBeenCalledTimes(1);
  });

  it('signs out at once for a Log Out clicked after it started, before the takeover', () => {
    runLoadAfterPaint();
    const page = drawnPage();
    const signOut = vi.fn();
    const early = holdEarlyClicks(page.root, signOut);
    takeOvers.push(() => early.takeOver(() => undefined));
    expect(signOut).not.toHaveBeenCalled();
    page.logOut.click();
    expect(signOut).toHaveBeenCalledTimes(1);
  });

  it('clicks another button clicked early again right after the takeover, unmarked before it', () => {
    runLoadAfterPaint();
    const page = drawnPage();
    page.toggle.click();
    page.link.addEventListener('click', (event) => event.preventDefault());
    page.link.click();
    page.outside.click();
    // Links work by themselves, and only the drawn page's buttons are kept.
    expect(page.link.hasAttribute(clickedEarly)).toBe(false);
    expect(page.outside.hasAttribute(clickedEarly)).toBe(false);
    const signOut = vi.fn();
    const early = holdEarlyClicks(page.root, signOut);
    const seen: string[] = [];
    page.toggle.addEventListener('click', () => seen.push('toggle clicked'));
    early.takeOver(() => {
      seen.push(`hydrated, marked: ${page.root.querySelectorAll(`[${clickedEarly}]`).length}`);
    });
    expect(seen).toEqual(['hydrated, marked: 0', 'toggle clicked']);
    expect(signOut).not.toHaveBeenCalled();
    // Once the app has the page, nothing is marked or held.
    page.toggle.click();
    page.logOut.click();
    expect(page.root.querySelectorAll(`[${clickedEarly}]`)).toHaveLength(0);
    expect(signOut).not.toHaveBeenCalled();
    expect(seen).toHaveLength(3);
  });
});
