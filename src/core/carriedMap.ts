/** What `CarriedMap.find` gives for a key it holds no answer for (an answer may be `undefined`). */
export const MISSING: unique symbol = Symbol('missing');

/** How a map holds an answer `undefined`. */
const NONE: unique symbol = Symbol('none');

/** Answers an earlier refresh froze: its own, over those below it except the keys `hidden` from them. */
interface Layer<V> {
  readonly own: ReadonlyMap<string, V | typeof NONE>;
  readonly hidden: ReadonlySet<string> | undefined;
  readonly below: Layer<V> | undefined;
  /** How many layers this one and those below it make. */
  readonly depth: number;
}

/** The most layers a lookup walks through (more are merged, the smallest first). */
const MAX_DEPTH = 4;

/**
 * A map of one refresh's answers that the next refresh takes over by reference, not by copy
 * (`carry`): the new map answers from its own entries, then from the old one's as they were when
 * carried, except the keys the change touched. The old one goes on answering and learning apart.
 * Carried layers merge once a layer holds at least half what the one below it does, or there are
 * more than `MAX_DEPTH`: the entries copied stay about those the refreshes learned, not the whole
 * map, and a lookup walks a few maps at most.
 */
export class CarriedMap<V> {
  private own = new Map<string, V | typeof NONE>();
  private hidden: ReadonlySet<string> | undefined;
  private below: Layer<V> | undefined;

  /** The answer for `key`, or `MISSING`. */
  find(key: string): V | typeof MISSING {
    // One look-up a map: an answer `undefined` is held as `NONE` (most paths asked do not exist).
    let v = this.own.get(key);
    if (v === undefined) {
      if (this.hidden?.has(key)) return MISSING;
      // A carried layer's answer, unless a change above hid it.
      for (let l = this.below; l && (v = l.own.get(key)) === undefined; l = l.below) if (l.hidden?.has(key)) return MISSING;
    }
    return v === undefined ? MISSING : ((v === NONE ? undefined : v) as V);
  }

  has(key: string): boolean {
    return this.find(key) !== MISSING;
  }

  get(key: string): V | undefined {
    const v = this.find(key);
    return v === MISSING ? undefined : v;
  }

  set(key: string, value: V): void {
    this.own.set(key, value === undefined ? NONE : value);
  }

  /** A map for the next refresh: every answer of this one but those of the keys in `changed`. */
  carry(changed?: ReadonlySet<string>): CarriedMap<V> {
    const next = new CarriedMap<V>();
    if (!this.own.size) {
      // Nothing learned since the last carry: the same layers, hiding what either change touched.
      next.below = this.below;
      next.hidden = hiding([this.hidden, changed], undefined, this.below);
      return next;
    }
    this.below = next.below = settle({ own: this.own, hidden: this.hidden, below: this.below, depth: (this.below?.depth ?? 0) + 1 });
    this.own = new Map();
    this.hidden = undefined;
    next.hidden = hiding([changed], undefined, next.below);
    return next;
  }
}

/** Whether `layer` answers `key`. */
function holds<V>(layer: Layer<V> | undefined, key: string): boolean {
  for (let l = layer; l; l = l.below) {
    if (l.own.has(key)) return true;
    if (l.hidden?.has(key)) return false;
  }
  return false;
}

/**
 * The keys of `sets` worth hiding from `below`: those it answers and `own` does not. Keys a change
 * touched that nothing answered, or that were asked again since, are not kept layer after layer.
 */
function hiding<V>(sets: (ReadonlySet<string> | undefined)[], own: ReadonlyMap<string, V | typeof NONE> | undefined, below: Layer<V> | undefined): ReadonlySet<string> | undefined {
  let out: Set<string> | undefined;
  for (const keys of sets) if (keys) for (const key of keys) if (!own?.has(key) && holds(below, key)) (out ??= new Set()).add(key);
  return out;
}

/** `top` with the layers under it merged while it holds at least half the next one's entries, or the layers are too many. */
function settle<V>(top: Layer<V>): Layer<V> {
  while (top.below && (top.own.size * 2 >= top.below.own.size || top.depth > MAX_DEPTH)) top = merge(top, top.below);
  return top;
}

/** One layer answering as `upper` over `lower` does. */
function merge<V>(upper: Layer<V>, lower: Layer<V>): Layer<V> {
  const own = new Map(lower.own);
  if (upper.hidden) for (const key of upper.hidden) own.delete(key);
  for (const [key, value] of upper.own) own.set(key, value);
  const hidden = hiding([lower.hidden, upper.hidden], own, lower.below);
  return { own, hidden, below: lower.below, depth: lower.depth };
}
