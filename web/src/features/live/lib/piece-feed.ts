/** The pieces of caption text a viewer has been shown, in order, for readers beside the captions (translation). */
export class PieceFeed {
  readonly pieces: string[] = [];
  private readonly listeners = new Set<() => void>();

  push(piece: string): void {
    if (!piece) return;
    this.pieces.push(piece);
    for (const listener of this.listeners) listener();
  }

  reset(): void {
    this.pieces.length = 0;
    for (const listener of this.listeners) listener();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
