// What long work reports as it goes. The services only call it; the terminal side (a line on
// stderr, only when it is a terminal) is the cli's (src/cli/progress.ts).

export interface Progress {
  update(text: string): void;
  done(): void;
}
