/**
 * A registry of named entries, the way amis registers its renderers and actions
 * (registerRenderer / registerAction): the renderer's built-ins are entries like any the console
 * adds, one entry a name, and a second entry of a name throws rather than silently replacing the
 * first (two modules claiming one name is a programming error found at start).
 */
export class Registry<T> {
  private readonly entries = new Map<string, T>();

  /** `what` names the entries in messages (动作类型, 组件类型 …). */
  constructor(private readonly what: string) {}

  /** Adds an entry; throws when the name is taken. */
  register(name: string, entry: T): this {
    if (this.entries.has(name)) throw new Error(`${this.what} ${name} 已注册`);
    this.entries.set(name, entry);
    return this;
  }

  get(name: string): T | undefined {
    return this.entries.get(name);
  }

  /** The registered names, in the order they were registered (what `npm run check` accepts). */
  names(): string[] {
    return [...this.entries.keys()];
  }
}
