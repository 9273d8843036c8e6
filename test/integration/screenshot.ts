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
  sidebar: { width: number; title: string; titleFits: boolean };
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
