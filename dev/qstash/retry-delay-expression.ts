// Upstash-Retry-Delay: an arithmetic expression in milliseconds over the variable `retried`
// (0 for the first retry), e.g. "pow(2, retried) * 1000". QStash documents + - * /, parentheses and
// the functions below; this is a small recursive-descent evaluator for exactly that language, so a
// publish with an expression QStash would reject is rejected here too instead of being ignored.

type Evaluate = (retried: number) => number;

const FUNCTIONS: Record<string, { arity: number | "many"; apply: (args: number[]) => number }> = {
  pow: { arity: 2, apply: ([a = 0, b = 0]) => a ** b },
  sqrt: { arity: 1, apply: ([a = 0]) => Math.sqrt(a) },
  abs: { arity: 1, apply: ([a = 0]) => Math.abs(a) },
  exp: { arity: 1, apply: ([a = 0]) => Math.exp(a) },
  floor: { arity: 1, apply: ([a = 0]) => Math.floor(a) },
  ceil: { arity: 1, apply: ([a = 0]) => Math.ceil(a) },
  round: { arity: 1, apply: ([a = 0]) => Math.round(a) },
  min: { arity: "many", apply: (args) => Math.min(...args) },
  max: { arity: "many", apply: (args) => Math.max(...args) },
};

const TOKEN = /\s*(?:(\d+(?:\.\d+)?)|([A-Za-z_][A-Za-z0-9_]*)|([-+*/(),]))/y;

function tokenize(text: string): string[] {
  const tokens: string[] = [];
  let position = 0;
  while (position < text.length) {
    TOKEN.lastIndex = position;
    const match = TOKEN.exec(text);
    if (!match) {
      if (text.slice(position).trim() === "") break;
      throw new Error(`unexpected character at ${position}`);
    }
    tokens.push(match[1] ?? match[2] ?? match[3] ?? "");
    position = TOKEN.lastIndex;
  }
  return tokens;
}

class Parser {
  private index = 0;
  constructor(private readonly tokens: string[]) {}

  parseAll(): Evaluate {
    const expression = this.sum();
    if (this.index < this.tokens.length) throw new Error(`unexpected "${this.tokens[this.index]}"`);
    return expression;
  }

  private peek(): string | undefined {
    return this.tokens[this.index];
  }

  private take(expected?: string): string {
    const token = this.tokens[this.index];
    if (token === undefined) throw new Error("unexpected end of expression");
    if (expected !== undefined && token !== expected) throw new Error(`expected "${expected}"`);
    this.index += 1;
    return token;
  }

  private sum(): Evaluate {
    let left = this.product();
    for (let op = this.peek(); op === "+" || op === "-"; op = this.peek()) {
      this.take();
      const l = left;
      const r = this.product();
      left = op === "+" ? (n) => l(n) + r(n) : (n) => l(n) - r(n);
    }
    return left;
  }

  private product(): Evaluate {
    let left = this.unary();
    for (let op = this.peek(); op === "*" || op === "/"; op = this.peek()) {
      this.take();
      const l = left;
      const r = this.unary();
      left = op === "*" ? (n) => l(n) * r(n) : (n) => l(n) / r(n);
    }
    return left;
  }

  private unary(): Evaluate {
    if (this.peek() === "-") {
      this.take();
      const operand = this.unary();
      return (n) => -operand(n);
    }
    if (this.peek() === "+") this.take();
    return this.primary();
  }

  private primary(): Evaluate {
    const token = this.take();
    if (token === "(") {
      const inner = this.sum();
      this.take(")");
      return inner;
    }
    if (/^\d/.test(token)) {
      const value = Number(token);
      return () => value;
    }
    if (token === "retried") return (n) => n;
    const fn = FUNCTIONS[token];
    if (!fn) throw new Error(`unknown name "${token}"`);
    return this.call(token, fn);
  }

  private call(name: string, fn: (typeof FUNCTIONS)[string]): Evaluate {
    this.take("(");
    const args: Evaluate[] = [this.sum()];
    while (this.peek() === ",") {
      this.take();
      args.push(this.sum());
    }
    this.take(")");
    if (fn.arity !== "many" && args.length !== fn.arity) {
      throw new Error(`${name} takes ${fn.arity} argument(s)`);
    }
    return (n) => fn.apply(args.map((arg) => arg(n)));
  }
}

/** Compiles an Upstash-Retry-Delay expression; throws with a readable reason when it is malformed. */
export function compileRetryDelay(expression: string): Evaluate {
  return new Parser(tokenize(expression)).parseAll();
}
