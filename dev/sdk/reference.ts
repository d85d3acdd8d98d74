/**
 * `npm run sdk:reference`: writes sdk/REFERENCE.md from the SDK's own types and doc comments (its
 * exports, their signatures, and every API operation of `Copm` with its summary), through the
 * TypeScript compiler API of the sdk workspace's TypeScript 6. tests/sdk/reference.test.ts fails
 * when the committed page and the code disagree.
 */
import { writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
// The sdk workspace's TypeScript 6: TypeScript 7, the project's compiler, ships no compiler API.
import type * as TypeScript from "../../sdk/node_modules/typescript/lib/typescript.js";
import { SDK_DIR } from "./partner-document";

const ts = createRequire(join(SDK_DIR, "package.json"))("typescript") as typeof TypeScript;

export function sdkReference(): string {
  const entry = join(SDK_DIR, "src", "index.ts");
  const program = ts.createProgram([entry], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
    types: [],
    strict: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry);
  const module = source && checker.getSymbolAtLocation(source);
  if (!module) throw new Error("sdk/src/index.ts not found");
  /** The first paragraph of a comment: an operation's summary. */
  const summaryOf = (symbol: TypeScript.Symbol) =>
    (ts.displayPartsToString(symbol.getDocumentationComment(checker)).split(/\n\s*\n/)[0] ?? "")
      .replace(/\s*\n\s*/g, " ")
      .trim();
  const docOf = (symbol: TypeScript.Symbol) =>
    ts
      .displayPartsToString(symbol.getDocumentationComment(checker))
      .replace(/\s*\n\s*/g, " ")
      .trim();
  const flags = ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope;
  /** A member's type as its declaration writes it (readable), else as the checker sees it. */
  const typeOf = (member: TypeScript.Symbol, declaration: TypeScript.Declaration) => {
    const written = (declaration as { type?: TypeScript.TypeNode }).type;
    if (written) return written.getText();
    return checker.typeToString(checker.getTypeOfSymbolAtLocation(member, declaration), undefined, flags);
  };

  const lines = [
    "# @copm/integrations-sdk reference",
    "",
    "<!-- Made by `npm run sdk:reference` from the SDK's types and doc comments: edit the code, not this page. -->",
    "",
    "Every schema of the API's OpenAPI document is also exported as a type (`SettlementOrderRead`,",
    "`Payout`, `Swap`, `Event`…; sdk/src/generated/types.gen.ts).",
    "",
    "## Exports",
    "",
  ];
  let operations: string[] = [];
  /** The members a class or an interface declares itself (not inherited, not private), one line each. */
  const members = (type: TypeScript.Type, owner: TypeScript.Declaration) => {
    for (const member of checker.getPropertiesOfType(type)) {
      const own = member.declarations?.[0];
      if (!own || own.parent !== owner || member.name.startsWith("_")) continue;
      if (ts.getCombinedModifierFlags(own) & ts.ModifierFlags.Private) continue;
      const written = typeOf(member, own).replace(/\s+/g, " ").replaceAll("`", "");
      lines.push(`- \`${member.name}\`: \`${written}\`${docOf(member) ? `. ${docOf(member)}` : ""}`);
    }
    lines.push("");
  };
  for (const exported of checker.getExportsOfModule(module).sort((a, b) => a.name.localeCompare(b.name))) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    const declaration = symbol.declarations?.[0];
    if (!declaration || declaration.getSourceFile().fileName.includes("/generated/types.gen.ts")) continue;
    const doc = docOf(symbol);
    if (symbol.flags & ts.SymbolFlags.Class) {
      lines.push(`### class \`${exported.name}\``, "", doc, "");
      const instance = checker.getDeclaredTypeOfSymbol(symbol);
      if (exported.name === "CopmApi") {
        lines.push("Every operation of the API (below); `Copm` is the client to use.", "");
        operations = checker
          .getPropertiesOfType(instance)
          .filter((member) => member.flags & ts.SymbolFlags.Method)
          .map((member) => `| \`${member.name}\` | ${summaryOf(member).replaceAll("|", "\\|")} |`);
        continue;
      }
      members(instance, declaration);
    } else if (symbol.flags & ts.SymbolFlags.Interface) {
      lines.push(`### interface \`${exported.name}\``, "", doc, "");
      members(checker.getDeclaredTypeOfSymbol(symbol), declaration);
    } else if (symbol.flags & (ts.SymbolFlags.Function | ts.SymbolFlags.Variable)) {
      const type = checker.getTypeOfSymbolAtLocation(symbol, declaration);
      const signatures = type.getCallSignatures();
      // An object of functions (a plan kind) is described by its comment; its type is not for reading.
      if (signatures.length === 0 && type.getProperties().length > 0) {
        lines.push(`### \`${exported.name}\``, "", doc, "");
        continue;
      }
      const shown =
        signatures.length > 0
          ? signatures.map((signature) => checker.signatureToString(signature, undefined, flags)).join("; ")
          : checker.typeToString(type, undefined, flags);
      const head = `${exported.name}${signatures.length > 0 ? "" : ": "}${shown}`;
      lines.push(`### \`${exported.name}\``, "", "```ts", head, "```", "", doc, "");
    } else if (symbol.flags & ts.SymbolFlags.TypeAlias) {
      const written = (declaration as TypeScript.TypeAliasDeclaration).type.getText().replace(/\s+/g, " ");
      lines.push(
        `### type \`${exported.name}\``,
        "",
        "```ts",
        `type ${exported.name} = ${written}`,
        "```",
        "",
        doc,
        "",
      );
    }
  }
  lines.push(
    "## Operations of `Copm`",
    "",
    "Each takes `{ body?, path?, query?, headers? }` typed from the document and answers `{ data, request, response }`.",
    "",
    "| method | what it does |",
    "| --- | --- |",
    ...operations.sort(),
    "",
  );
  return `${lines
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trimEnd()}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await writeFile(join(SDK_DIR, "REFERENCE.md"), sdkReference());
  process.stdout.write("sdk/REFERENCE.md\n");
}
