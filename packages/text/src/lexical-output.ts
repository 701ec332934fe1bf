import type { TermNumbering } from "./term-numbering.js";
import type { TermTable } from "./term-table.js";

/**
 * Where the lexical view puts the terms of one text, in order: as strings (`lexicalTerms`), or
 * as ids under a `TermNumbering` (`lexicalTermIds`), gathered in a typed array used again text
 * after text (the ids of a text are copied out at its end), so an index being built makes no
 * string and no array per term.
 */
export class LexicalOutput {
  /** The terms as strings: all of them without a numbering; with one, those after `deferTerms`. */
  private strings: string[] = [];
  private ids: Uint32Array<ArrayBuffer>;
  private idCount = 0;
  /** Whether terms go in as strings for now although there is a numbering (`deferTerms`). */
  private deferred = false;

  constructor(
    readonly numbering: TermNumbering | undefined,
    scratch: Uint32Array<ArrayBuffer>,
  ) {
    this.ids = scratch;
  }

  /** How many terms there are so far. */
  get count(): number {
    return this.idCount + this.strings.length;
  }

  /**
   * From now on, terms go in as strings, and are numbered in text order once the CJK runs'
   * words are placed among them (`placeRuns`), so that a numbering gives ids in the order
   * `lexicalTerms` gives terms.
   */
  deferTerms(): void {
    if (this.numbering !== undefined) this.deferred = true;
  }

  /** Adds a term worked out outside `TermTable` (CJK words, words holding other scripts). */
  addTerm(term: string): void {
    if (this.numbering === undefined || this.deferred) this.strings.push(term);
    else this.addId(this.numbering.idOf(term));
  }

  /** Adds the term `table` holds for an ASCII word of `source` (`TermTable.termOf` for the arguments), if it gives one. */
  addTableWord(table: TermTable, source: string, start: number, end: number, hash: number, lowerCase: boolean): void {
    if (this.numbering === undefined || this.deferred) {
      const term = table.termOf(source, start, end, hash, lowerCase);
      if (term !== null) this.strings.push(term);
      return;
    }
    const id = table.termIdOf(source, start, end, hash, lowerCase, this.numbering);
    if (id >= 0) this.addId(id);
  }

  /**
   * Puts `runTerms[run]` in at `places[run]` (the count when the run was read, after
   * `deferTerms`; places in order), after all the terms that came before it.
   */
  placeRuns(places: readonly number[], runTerms: ReadonlyArray<readonly string[]>): void {
    const placed: string[] = [];
    const terms = this.strings;
    // The terms before the first run that are ids already.
    const offset = this.idCount;
    let next = 0;
    places.forEach((place, run) => {
      for (; next < place - offset; next += 1) placed.push(terms[next] as string);
      for (const term of runTerms[run] as readonly string[]) placed.push(term);
    });
    for (; next < terms.length; next += 1) placed.push(terms[next] as string);
    if (this.numbering === undefined) {
      this.strings = placed;
      return;
    }
    for (const term of placed) this.addId(this.numbering.idOf(term));
    this.strings = [];
    this.deferred = false;
  }

  /** The terms gathered (without a numbering). */
  takeStrings(): string[] {
    return this.strings;
  }

  /** The ids gathered (with a numbering): a view of the scratch array, which the next text overwrites. */
  viewIds(): Uint32Array<ArrayBuffer> {
    return this.ids.subarray(0, this.idCount);
  }

  /** The scratch array, grown if it had to be (for the next text). */
  get scratch(): Uint32Array<ArrayBuffer> {
    return this.ids;
  }

  private addId(id: number): void {
    if (this.idCount === this.ids.length) {
      const grown = new Uint32Array(2 * this.ids.length);
      grown.set(this.ids);
      this.ids = grown;
    }
    this.ids[this.idCount] = id;
    this.idCount += 1;
  }
}
