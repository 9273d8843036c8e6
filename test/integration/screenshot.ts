// Lets a test save a picture of the workbench, or measure what it renders. The extension host cannot reach the page, so the
// runner listens on 127.0.0.1 (INSTRUCTION_LENS_SCREENSHOT_URL) and takes the screenshot before
// answering. Without that variable (e.g. the desktop VS Code runner) this does nothing.
export async function screenshot(name: string, clip?: { x: number; y: number; width: number; height: number }): Promise<string | undefined> {
  const url = process.env.INSTRUCTION_LENS_SCREENSHOT_URL;
  if (!url) return undefined;
  const query = new URLSearchParams({ name });
  if (clip) query.set('clip', [clip.x, clip.y, clip.width, clip.height].join(','));
  const response = await fetch(`${url}?${query}`);
  const body = await response.text();
  if (!response.ok) throw new Error(`screenshot ${name} failed: ${body}`);
  return body; // the saved file's path
}

/** What the page shows, as the runner measures it (`measurePage` in scripts/runIntegrationTests.mjs). */
export interface PageMeasure {
  window: { width: number; height: number };
  /** `actions`: the names of the buttons on its title bar (the view's, when it is the only one shown). */
  sidebar: { width: number; title: string; titleFits: boolean; actions: string[] };
  /** `fits`: the label is whole; `descriptionFits`: so is the description after it. */
  rows: { label: string; description: string; fits: boolean; descriptionFits: boolean; expanded: string | null; labelWidth: number; room: number }[];
  codeLenses: { text: string; fits: boolean }[];
  statusBar: { id: string; text: string }[];
  panel: string;
  /** The text of each notification toast on screen. */
  notifications: string[];
}

/** Measures the rendered workbench; undefined where no runner takes measures (the desktop VS Code runner). */
export async function measure(): Promise<PageMeasure | undefined> {
  const url = process.env.INSTRUCTION_LENS_SCREENSHOT_URL;
  if (!url) return undefined;
  const response = await fetch(new URL('measure', url));
  if (!response.ok) throw new Error(`measure failed: ${await response.text()}`);
  return (await response.json()) as PageMeasure;
}

/**
 * Clicks the side bar title's button whose name starts with `action`, in the page, as a user
 * would; false where no runner reaches the page (the desktop VS Code runner).
 */
export async function clickTitleAction(action: string): Promise<boolean> {
  const url = process.env.INSTRUCTION_LENS_SCREENSHOT_URL;
  if (!url) return false;
  const response = await fetch(new URL(`click?${new URLSearchParams({ action })}`, url));
  if (!response.ok) throw new Error(`click on ${action} failed: ${await response.text()}`);
  return true;
}
