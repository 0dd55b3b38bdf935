/**
 * A registry of named entries, the way amis registers its renderers and actions
 * (registerRenderer / registerAction): the renderer's built-ins are entries like any the console
 * adds, one entry a name, and a second entry of a name throws rather than silently replacing the
 * first (two modules claiming one name is a programming error found at start).
 */
export class Registry<T> {
  private readonly entries = new Map<string, T>();

  /**
   * `what` names the entries in messages (动作类型, 展示方式 …); `onRegister` hears each entry
   * added (a library's own table kept in step, Formily's components).
   */
  constructor(
    private readonly what: string,
    private readonly onRegister?: (name: string, entry: T) => void,
  ) {}

  /** Adds an entry; throws when the name is taken (by a built-in or by another extension). */
  register(name: string, entry: T): this {
    if (this.entries.has(name)) throw new Error(`${this.what} ${name} 已注册（内置或扩展），不能再注册一次：请换一个名称`);
    this.entries.set(name, entry);
    this.onRegister?.(name, entry);
    return this;
  }

  get(name: string): T | undefined {
    return this.entries.get(name);
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** The registered names, in the order they were registered (what `npm run check` accepts). */
  names(): string[] {
    return [...this.entries.keys()];
  }

  /** The entries with their names, in the order they were registered. */
  list(): Array<[string, T]> {
    return [...this.entries];
  }
}

/**
 * One prop an entry takes (a column's `dictType`, a component's `operation` …), as `npm run check`
 * reads it: whether a page must give it, and what kind of name it holds.
 */
export interface PropSpec {
  /** A page naming the entry must give it. */
  required?: boolean;
  /** It names a catalogued operation of one of these kinds (schemas/operations.json). */
  operation?: readonly string[];
  /** It names a dictionary type (schemas/dictionaries.json). */
  dictType?: boolean;
}

/** The props an entry takes, by name. */
export type PropSpecs = Readonly<Record<string, PropSpec>>;
