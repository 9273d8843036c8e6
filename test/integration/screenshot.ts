// Lets a test save a picture of the workbench. The extension host cannot reach the page, so the
// runner listens on 127.0.0.1 (INSTRUCTION_LENS_SCREENSHOT_URL) and takes the screenshot before
// answering. Without that variable (e.g. the desktop VS Code runner) this does nothing.
export async function screenshot(name: string): Promise<string | undefined> {
  const url = process.env.INSTRUCTION_LENS_SCREENSHOT_URL;
  if (!url) return undefined;
  const response = await fetch(`${url}?name=${encodeURIComponent(name)}`);
  const body = await response.text();
  if (!response.ok) throw new Error(`screenshot ${name} failed: ${body}`);
  return body; // the saved file's path
}
