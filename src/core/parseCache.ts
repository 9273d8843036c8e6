/**
 * Parse results kept by the text they came from: an instruction file is parsed once per change
 * of its content, however many chains, agents and refreshes read it (`check` resolves a chain
 * for every folder, and every chain reads the files of the folders above it). Keyed by the text
 * itself, so unsaved editor text and files on disk are treated alike and a stale entry is
 * impossible. Results are shared: callers must not change them.
 */
export class ParseCache<T> {
  private readonly entries = new Map<string, T>();

  /**
   * @param parse the parser whose results are kept
   * @param maxEntries the most texts kept; the oldest go first
   * @param maxChars texts longer than this are parsed every time, so a huge file is not held
   */
  constructor(
    private readonly parse: (text: string) => T,
    private readonly maxEntries = 4096,
    private readonly maxChars = 256 * 1024,
  ) {}

  get(text: string): T {
    if (text.length > this.maxChars) return this.parse(text);
    if (this.entries.has(text)) return this.entries.get(text) as T;
    const value = this.parse(text);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(text, value);
    return value;
  }
}
