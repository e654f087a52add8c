/**
 * Does a query's SQL write? The statements and clauses that change data or schema, found in the
 * text outside comments, string literals and quoted identifiers, so that `select 'delete'` and a
 * column named `"update"` do not count. A word followed by `(` is a function (`replace(s, 'a',
 * 'b')`, MySQL's `insert(str, …)`), and `for update` is a locking read; neither writes. `select …
 * into <table>` creates a table (PostgreSQL, SQL Server) and writes; `into @variable` (MySQL) does
 * not. A heuristic, not a parser: it errs towards reporting a write (a MySQL `#` comment is read as
 * SQL, since `#` is an operator in PostgreSQL).
 */

/** Keywords that begin a statement (or a writable CTE) that changes data or schema. */
const WRITES: ReadonlySet<string> = new Set([
  "INSERT",
  "UPDATE",
  "DELETE",
  "MERGE",
  "UPSERT",
  "REPLACE",
  "CREATE",
  "DROP",
  "ALTER",
  "TRUNCATE",
  "GRANT",
  "REVOKE",
  "RENAME",
  "COPY",
  "UNLOAD",
  "CALL",
]);

interface Token {
  /** An upper-cased bare word, or a single punctuation character. */
  text: string;
  word: boolean;
}

/** Bare words and punctuation; comments, literals and quoted identifiers dropped (a literal becomes `'`). */
export function tokens(sql: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const c = sql[i]!;
    if (c === "-" && sql[i + 1] === "-") {
      while (i < sql.length && sql[i] !== "\n") i++;
    } else if (c === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      i = end < 0 ? sql.length : end + 2;
    } else if (c === "'" || c === '"' || c === "`") {
      // Quoted: a doubled quote is an escaped one; a backslash escapes in MySQL strings.
      i++;
      while (i < sql.length) {
        if (sql[i] === "\\" && c === "'") i += 2;
        else if (sql[i] === c && sql[i + 1] === c) i += 2;
        else if (sql[i] === c) break;
        else i++;
      }
      i++;
      out.push({ text: c === "'" ? "'" : "ident", word: c !== "'" });
    } else if (/[A-Za-z_@]/.test(c)) {
      const m = /^[A-Za-z_@][A-Za-z0-9_$@]*/.exec(sql.slice(i))!;
      out.push({ text: m[0].toUpperCase(), word: true });
      i += m[0].length;
    } else if (/\s/.test(c)) {
      i++;
    } else {
      out.push({ text: c, word: false });
      i++;
    }
  }
  return out;
}

/** The write keywords the SQL uses, each once, in the order they first appear. */
export function sqlWrites(sql: string): string[] {
  const t = tokens(sql);
  const found: string[] = [];
  const add = (w: string) => {
    if (!found.includes(w)) found.push(w);
  };
  let head: string | undefined;
  for (let i = 0; i < t.length; i++) {
    const tok = t[i]!;
    if (tok.text === ";") {
      head = undefined;
      continue;
    }
    if (!tok.word) continue;
    head ??= tok.text;
    const next = t[i + 1];
    const previous = t[i - 1];
    if (WRITES.has(tok.text) && next?.text !== "(" && !(tok.text === "UPDATE" && previous?.text === "FOR")) add(tok.text);
    if (tok.text === "LOAD" && next?.text === "DATA") add("LOAD DATA");
    if (tok.text === "INTO" && (head === "SELECT" || head === "WITH") && next?.word && !next.text.startsWith("@")) add("SELECT INTO");
  }
  return found;
}
