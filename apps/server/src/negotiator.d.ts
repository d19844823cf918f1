/** The part of negotiator 1.x (jshttp, no types of its own; @types/negotiator describes 0.6) that compression.ts uses. */
declare module 'negotiator' {
  export default class Negotiator {
    constructor(request: { headers: Record<string, string | undefined> });
    /** The most preferred of `available` the request accepts (ties broken by `preferred`), or undefined. */
    encoding(available: readonly string[], options?: { preferred?: readonly string[] }): string | undefined;
  }
}
