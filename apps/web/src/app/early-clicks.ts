/**
 * Clicks on a drawn page (/home, a signed-in /welcome) before React has taken it over. Its links
 * work as plain links then, but its buttons have no handlers yet. `public/load-after-paint.js`
 * (loaded with the drawn page, long before this code) marks each button clicked then with this
 * attribute and tells so with `clickedEvent`, until this side sends `takenOverEvent`. This code
 * can only listen once it runs, and it runs only once the entry and every file it imports are in:
 * a click before then was lost (a Log Out did nothing while a file was slow to arrive).
 */
export const clickedEarly = 'data-clicked-early';
const clickedEvent = 'pra:clicked-early';
const takenOverEvent = 'pra:taken-over';

/**
 * Acts on the drawn page's early clicks, those made before this code arrived included: a Log Out
 * (`data-sign-out`) calls `signOut` at once (once), without waiting for the page's lazy parts; the
 * other buttons are clicked again by `takeOver`, right after React has been given the page, so
 * their own handlers run (a phone's menu toggle opens the menu).
 */
export function holdEarlyClicks(
  container: HTMLElement,
  signOut: () => void,
): { takeOver: (hydrate: () => void) => void } {
  let signingOut = false;
  const marked = () => Array.from(container.querySelectorAll<HTMLElement>(`[${clickedEarly}]`));
  const onClicked = () => {
    for (const element of marked()) {
      if (!element.closest('[data-sign-out]')) continue;
      element.removeAttribute(clickedEarly);
      if (!signingOut) {
        signingOut = true;
        signOut();
      }
    }
  };
  document.addEventListener(clickedEvent, onClicked);
  onClicked();
  return {
    takeOver(hydrate) {
      document.removeEventListener(clickedEvent, onClicked);
      document.dispatchEvent(new Event(takenOverEvent));
      // Unmarked before React reads the markup, which then is exactly what was drawn.
      const again = marked();
      for (const element of again) element.removeAttribute(clickedEarly);
      hydrate();
      // A click on markup React has not hydrated yet makes it hydrate at once, then handle it.
      for (const element of again) if (element.isConnected) element.click();
    },
  };
}
