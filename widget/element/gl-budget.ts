/**
 * The page's WebGL budget. Every table's scene holds a WebGL context, and Chromium keeps about
 * sixteen per page: making one more silently kills the OLDEST, so a lobby of tables would end with
 * dead felts. All tables of the page therefore share a bounded number of scene slots: a table takes
 * a slot before it makes its scene and gives it back once the scene (and its context) is gone.
 *
 * - A free slot goes to whoever asks, in view or not (a table mounted below the fold still gets its
 *   felt drawn, and gives it back after the grace if it stays out of view).
 * - No free slot: a table in view takes the slot of the table out of view the longest; when every
 *   slot is held by a table in view, it waits (playable on the plain felt, scene-slot.ts) and gets
 *   the first slot that frees, or that of a holder that scrolls out of view.
 * - A table out of view, or not yet known to be in view, never takes a slot from another one nor
 *   waits: it asks again when it is seen.
 *
 * One module-level budget per page on purpose (nothing on window): the limit is the page's, not a
 * table's.
 */

/** A table's side of the deal. */
export interface GlClaim {
  /** Whether the table is in view now (on screen, tab visible); null while not known yet. */
  seen(): boolean | null;
  /** When it was last in view (performance.now() units; now while in view, -∞ if never). */
  lastSeen(): number;
  /**
   * Gives the slot back at once: destroys the scene, so its context is lost before the caller
   * makes another. False when it cannot now (its scene is still being made); it keeps the slot.
   */
  evict(): boolean;
  /** A slot for a waiting claim: make the scene now. */
  grant(): void;
}

export class GlBudget {
  #limit = 8;
  #graceMs = 30_000;
  readonly #held = new Set<GlClaim>();
  readonly #waiting: GlClaim[] = [];

  /** Scenes (WebGL contexts) the page's tables may hold at once; 8 by default, at least 1. */
  get limit(): number {
    return this.#limit;
  }
  set limit(value: number) {
    this.#limit = Math.max(1, Math.floor(value));
    // A lower limit is reached as scenes go (nothing live is torn down for it); a higher one serves the queue.
    this.#serveQueue();
  }

  /**
   * How long a table stays scrolled out of view before it gives its scene back (ms); 30 s by
   * default. A slot someone in view needs is taken at once anyway (eviction), so this only frees
   * GPU memory; a longer grace spares rebuilds when the player scrolls back.
   */
  get graceMs(): number {
    return this.#graceMs;
  }
  set graceMs(value: number) {
    this.#graceMs = Math.max(0, value);
  }

  /** Slots held now: scenes live or being made. */
  get inUse(): number {
    return this.#held.size;
  }

  /** Tables in view waiting for a slot. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /**
   * Asks for a slot. True: held (maybe already), make the scene. False: none now — a claim in view
   * waits for `grant()`, any other is simply refused (it asks again when it is seen).
   */
  acquire(claim: GlClaim): boolean {
    if (this.#held.has(claim)) return true;
    if (this.#held.size < this.#limit || (claim.seen() === true && this.#evictFor())) {
      this.#held.add(claim);
      this.#drop(claim);
      return true;
    }
    if (claim.seen() === true && !this.#waiting.includes(claim)) this.#waiting.push(claim);
    return false;
  }

  /** Gives back the slot (once its scene is destroyed) or leaves the queue. Repeats nothing. */
  release(claim: GlClaim): void {
    this.#drop(claim);
    if (this.#held.delete(claim)) this.#serveQueue();
  }

  /** Whether `claim` is queued for a slot. */
  isWaiting(claim: GlClaim): boolean {
    return this.#waiting.includes(claim);
  }

  /**
   * Call when a table's visibility changed or its scene arrived: a claim in view still waiting
   * takes the slot of a holder now out of view, without waiting for its grace to run out.
   */
  rebalance(): void {
    for (const claim of [...this.#waiting]) {
      if (claim.seen() !== true || !this.#evictFor()) continue;
      this.#drop(claim);
      this.#held.add(claim);
      claim.grant();
    }
  }

  /** Frees one slot by evicting the holder out of view the longest; false if none can go now. */
  #evictFor(): boolean {
    // Known to be out of view only: a table whose observer has not reported yet may well be on screen.
    const candidates = [...this.#held].filter((c) => c.seen() === false).sort((a, b) => a.lastSeen() - b.lastSeen());
    for (const holder of candidates) {
      // Off the books first: the holder's own release (from its teardown) is then a no-op.
      this.#held.delete(holder);
      if (holder.evict()) return true;
      this.#held.add(holder);
    }
    return false;
  }

  #drop(claim: GlClaim): void {
    const i = this.#waiting.indexOf(claim);
    if (i >= 0) this.#waiting.splice(i, 1);
  }

  /** Free slots go to the queue, first come first served. */
  #serveQueue(): void {
    while (this.#held.size < this.#limit && this.#waiting.length > 0) {
      const next = this.#waiting.shift()!;
      this.#held.add(next);
      next.grant();
    }
  }
}

/** The one budget of the page, shared by every <punto-banco-table>. */
export const glBudget = new GlBudget();
